/**
 * The maintainer's trace after a release: an optional query parameter `name` on `jobs/list-project-jobs` is two files
 * in `openapi/` (a parameter fragment and one `$ref` line) and one CHANGELOG line under `## Unreleased`; the build's
 * published files follow, and no version is typed anywhere. Run on a copy of openapi/, CHANGELOG.md and releases/ in
 * a temporary folder: the layout lint, the Redocly bundle, the published generators, the gate (the releases read from
 * this repository's history) and the release plan.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOpenApi30 } from '../generators/openapi30.ts';
import { generatePublished } from '../generators/published.ts';
import { bundleSource } from '../scripts/lib/bundle.ts';
import { checkLayout } from '../scripts/lib/layout.ts';
import { ROOT } from '../scripts/lib/paths.ts';
import { packageInputs, planRelease } from '../scripts/lib/release-plan.ts';
import { readRecord } from '../scripts/lib/release-record.ts';
import { contractBump, gate, gateInputFromRepository, listReleases } from '../scripts/lib/releases.ts';

const PATH_ITEM = 'openapi/jobs/paths/projects_{id}_jobs.yaml';
const FRAGMENT = 'openapi/jobs/parameters/JobName.yaml';
const PARAMETER = (required: boolean) =>
  `name: name\nin: query\nrequired: ${required}\ndescription: Only the jobs with this name.\nschema:\n  type: string\nexample: rspec\n`;
const CHANGELOG_LINE = '- `jobs/list-project-jobs` takes `name`: only the jobs with that name.';

let copy: string;
beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'service-api-trace-'));
  for (const path of ['openapi', 'CHANGELOG.md', 'releases', 'generated/openapi/openapi.json'])
    cpSync(join(ROOT, path), join(copy, path), { recursive: true });
});
afterAll(() => rmSync(copy, { recursive: true, force: true }));

const edit = (path: string, change: (text: string) => string) =>
  writeFileSync(join(copy, path), change(readFileSync(join(copy, path), 'utf8')));

/** The hand-written change: the fragment, its `$ref`, and `lines` under `## Unreleased`. */
function change(required: boolean, lines: string[]) {
  writeFileSync(join(copy, FRAGMENT), PARAMETER(required));
  edit(PATH_ITEM, (text) =>
    text.includes('JobName.yaml')
      ? text
      : text.replace(
          '    - $ref: ../parameters/JobScope.yaml\n',
          '    - $ref: ../parameters/JobScope.yaml\n    - $ref: ../parameters/JobName.yaml\n',
        ),
  );
  writeFileSync(join(copy, 'CHANGELOG.md'), readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'));
  edit('CHANGELOG.md', (text) => text.replace('## Unreleased\n', `## Unreleased\n\n${lines.join('\n')}\n`));
}

/**
 * The `## Unreleased` section holding only `lines` and one **Breaking** entry per kind the copy's document already has:
 * whatever main's own section marks, one more kind then needs one more entry.
 */
function onlyUnreleased(kinds: string[], lines: string[]) {
  const marked = kinds.map((kind) => `- **Breaking**: ${kind}.`);
  edit('CHANGELOG.md', (text) =>
    text.replace(/## Unreleased\n[\s\S]*?(?=\n## )/, `## Unreleased\n\n${[...marked, ...lines].join('\n')}\n`),
  );
}

/** What `npm run build` writes of the published document, from the copy's openapi/. */
async function build() {
  const doc = await bundleSource(join(copy, '.tmp', 'bundle.json'), join(copy, 'openapi', 'openapi.yaml'));
  for (const file of [...(await generatePublished(doc)), ...(await generateOpenApi30(doc))]) {
    mkdirSync(dirname(join(copy, file.path)), { recursive: true });
    writeFileSync(join(copy, file.path), file.contents);
  }
  return doc;
}

describe('add an optional query parameter after a release: 2 files in openapi/, 1 CHANGELOG line', () => {
  it('lints, builds, passes the gate and plans the release with no version typed', async () => {
    const before = JSON.parse(readFileSync(join(copy, 'generated/openapi/openapi.json'), 'utf8')) as {
      info: { version: string };
    };
    change(false, [CHANGELOG_LINE]);
    expect(checkLayout(join(copy, 'openapi'))).toEqual([]);
    const doc = await build();
    expect(JSON.stringify(doc.paths['/projects/{id}/jobs'])).toContain('#/components/parameters/JobName');
    expect(doc.components?.parameters?.JobName).toMatchObject({ name: 'name', in: 'query', required: false });
    expect(doc.info.version).toBe(before.info.version);

    const result = gate(gateInputFromRepository(copy, ROOT));
    expect(result.failures).toEqual([]);
    expect(result.differences).toContainEqual(
      expect.objectContaining({ severity: 'compatible', rule: 'parameter-added' }),
    );
    expect(contractBump(result)).toBeDefined();
    const latest = listReleases(readRecord(join(copy, 'releases', 'RELEASES.json'))).at(-1)!;
    const plan = planRelease({ latest, gate: result, packages: packageInputs() });
    expect(plan.newContract).toBe(true);
    expect(plan.packages.map((p) => p.name)).toContain('openapi');
  });

  it('made required, it is a new kind of breaking change: the gate asks for its own **Breaking** entry', async () => {
    const { breakingKinds: before } = gate(gateInputFromRepository(copy, ROOT));
    change(true, [CHANGELOG_LINE]);
    onlyUnreleased(before, [CHANGELOG_LINE]);
    await build();
    const refused = gate(gateInputFromRepository(copy, ROOT));
    expect(refused.breakingKinds).toEqual([...before, 'parameter-added-required'].sort());
    expect(refused.failures).toEqual([expect.stringMatching(/one entry at least per kind$/)]);

    onlyUnreleased(before, [`${CHANGELOG_LINE.replace('- ', '- **Breaking**: ')} It is required.`]);
    expect(gate(gateInputFromRepository(copy, ROOT)).failures).toEqual([]);
  });
});
