/**
 * The commands the READMEs give teams are the ones the tier runs (support/generators.ts), and every expected failure
 * names a generator, one of its checks and a cause.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.ts';
import { CHECKS, checksOf, EXPECTED_FAILURES } from './support/checks.ts';
import { GENERATORS, generatorNamed, README_GENERATORS, readmeCommand } from './support/generators.ts';
import { TIER } from './support/tools.ts';

const rootReadme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const tierReadme = readFileSync(join(TIER, 'README.md'), 'utf8');

/** The lines of the sh blocks of the README's "Generate your own code" section. */
function generateSection(): string[] {
  const start = rootReadme.indexOf('### Generate your own code');
  const end = rootReadme.indexOf('\n#', start + 1);
  const text = rootReadme.slice(start, end);
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n').filter(Boolean));
}

describe('the polyglot READMEs', () => {
  it("README.md's Generate your own code gives one command per language, each the one the tier runs", () => {
    const commands = generateSection().filter((line) => !line.startsWith('npx '));
    expect(commands).toEqual(README_GENERATORS.map((name) => readmeCommand(generatorNamed(name))));
    expect(new Set(README_GENERATORS.map((name) => generatorNamed(name).language))).toEqual(
      new Set(['java', 'kotlin', 'go', 'python']),
    );
  });

  it.each(GENERATORS.map((generator) => [generator.name, generator] as const))(
    'test/polyglot/README.md shows the command the tier runs for %s',
    (_name, generator) => {
      expect(tierReadme).toContain(`\`${readmeCommand(generator)}\``);
    },
  );
});

describe('expected-failures.json', () => {
  it('names generators of the tier, their checks and a cause, each once', () => {
    const keys = EXPECTED_FAILURES.map((entry) => `${entry.generator} ${entry.check}`);
    expect(keys.length).toBe(new Set(keys).size);
    for (const entry of EXPECTED_FAILURES) {
      expect(checksOf(generatorNamed(entry.generator)), keys.join()).toContain(entry.check);
      expect(Object.keys(CHECKS)).toContain(entry.check);
      expect(entry.cause).toMatch(/^(document|no driver yet|generator bug [\w.-]+\/[\w.-]+#\d+)$/);
      expect(entry.reason.length).toBeGreaterThan(10);
    }
  });

  it("lists every generator bug in the README's table with its upstream issue", () => {
    for (const entry of EXPECTED_FAILURES.filter((e) => e.cause.startsWith('generator bug'))) {
      const issue = entry.cause.replace('generator bug ', '');
      const [repo, number] = issue.split('#');
      expect(tierReadme).toContain(`[${issue}](https://github.com/${repo}/issues/${number})`);
    }
  });
});
