/**
 * @service-api/openapi as the build makes it (its dist/, through the workspace link): every file its exports name, the
 * module's typed access and its messages, the examples against the document they come from.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  contractVersion,
  documentPath,
  readDocument,
  requestExamples,
  responseExample,
  responseExamples,
} from '@service-api/openapi';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../scripts/lib/paths.ts';

const folder = join(ROOT, 'packages', 'openapi');
const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
  version: string;
  exports: Record<string, string | Record<string, string>>;
};
const published = (name: string) => readFileSync(join(ROOT, 'generated', 'openapi', name), 'utf8');

describe('the files', () => {
  it.each(Object.entries(manifest.exports).filter(([, target]) => typeof target === 'string'))(
    'export %s is a file of the package',
    (subpath, target) => {
      expect(existsSync(join(folder, target as string)), `${subpath} → ${target}`).toBe(true);
      // What a consumer's require.resolve or import.meta.resolve finds by the name.
      const require = createRequire(join(folder, 'package.json'));
      expect(require.resolve(`@service-api/openapi${subpath.slice(1)}`)).toBe(join(folder, target as string));
    },
  );

  it.each([
    [{}, 'openapi.json'],
    [{ format: 'yaml' }, 'openapi.yaml'],
    [{ rendition: '3.0' }, 'openapi.3.0.json'],
    [{ rendition: '3.0', format: 'yaml' }, 'openapi.3.0.yaml'],
  ] as const)('documentPath(%j) is generated/openapi/%s as published', (options, name) => {
    expect(readFileSync(documentPath(options), 'utf8')).toBe(published(name));
  });

  // The dereferenced forms are built into the package only (not tracked in generated/openapi/).
  it.each(['3.1', '3.0'] as const)(
    'the %s rendition dereferenced is its bundled document without a $ref',
    (rendition) => {
      const bundled = readDocument({ rendition });
      const dereferenced = readDocument({ rendition, dereferenced: true });
      expect(readFileSync(documentPath({ rendition, dereferenced: true }), 'utf8')).not.toContain('"$ref"');
      expect(dereferenced.info).toEqual(bundled.info);
      expect(Object.keys(dereferenced.paths as object)).toEqual(Object.keys(bundled.paths as object));
      // The YAML says the same (parsing its 4 MB would cost seconds): no reference, the same version and paths.
      const yaml = readFileSync(documentPath({ rendition, dereferenced: true, format: 'yaml' }), 'utf8');
      expect(yaml).not.toContain('$ref:');
      expect(yaml).toContain(`\nopenapi: ${dereferenced.openapi}\n`);
      expect(yaml.match(/^ {2}\/\S*:$/gm)).toEqual(Object.keys(bundled.paths as object).map((path) => `  ${path}:`));
    },
  );

  it('ships the HTML reference, which loads nothing from the network', () => {
    const html = readFileSync(join(folder, 'dist', 'reference.html'), 'utf8');
    expect(html).toContain(`<title>${(readDocument().info as { title: string }).title} ${contractVersion} reference`);
    expect(html).toContain('Content-Security-Policy');
  });

  it('reads both renditions; the version is the contract version', () => {
    expect(readDocument().openapi).toBe('3.1.0');
    expect(readDocument({ rendition: '3.0', dereferenced: true }).openapi).toBe('3.0.3');
    expect((readDocument().info as { version: string }).version).toBe(contractVersion);
    expect(manifest.version).toBe(contractVersion);
  });

  it('names what it accepts when given something else', () => {
    expect(() => documentPath({ rendition: '2.0' as never })).toThrow('Unknown rendition "2.0": 3.1 or 3.0');
    expect(() => documentPath({ format: 'xml' as never })).toThrow('Unknown format "xml": json or yaml');
  });
});

describe('the examples', () => {
  const doc = JSON.parse(published('openapi.json')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
    components: { examples: Record<string, { value: unknown }> };
  };
  const operationIds = new Set(
    Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId)),
  );

  it('are keyed by operationIds of the document, statuses and names', () => {
    const keys = Object.keys(responseExamples());
    expect(keys.length).toBeGreaterThan(100);
    expect(keys.filter((id) => !operationIds.has(id))).toEqual([]);
    expect(Object.keys(requestExamples()).filter((id) => !operationIds.has(id))).toEqual([]);
    expect(Object.keys(requestExamples()).length).toBeGreaterThan(10);
  });

  it('hold the values of the examples the document references', () => {
    expect(responseExample('jobs/list-project-jobs', 200, 'ProjectJobs')).toEqual(
      doc.components.examples.ProjectJobs!.value,
    );
    expect(responseExamples()['jobs/list-project-jobs']!['200']!.ProjectJobs).toBe(
      responseExample('jobs/list-project-jobs', '200', 'ProjectJobs'),
    );
  });

  it.each([
    ['no-such/operation', 200, 'X', 'No documented response examples for operation "no-such/operation"'],
    ['jobs/list-project-jobs', 299, 'X', 'documents examples for 200'],
    ['jobs/list-project-jobs', 200, 'Nope', 'has the examples ProjectJobs'],
  ] as const)('responseExample(%s, %s, %s) says what exists', (operationId, status, name, message) => {
    expect(() => responseExample(operationId, status, name)).toThrow(message);
  });
});
