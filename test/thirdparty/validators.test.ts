/**
 * The validators teams run on an OpenAPI document before feeding it to their tools: swagger-parser, Scalar's and
 * ReadMe's parsers, and Redocly's `recommended-strict` ruleset (the repository's own @redocly/cli, without the
 * repository's redocly.yaml), on the published 3.1 document and on its 3.0 rendition.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/paths.ts';
import { DOCUMENT_30, DOCUMENT_31, documentMissing, NODE_HERE, NODE_LTS, run, TIER } from './support/tools.ts';

/** Each validator, and the Node it needs (README.md). */
const VALIDATORS = [
  { name: 'swagger-parser', package: '@apidevtools/swagger-parser', node: NODE_LTS },
  { name: 'scalar', package: '@scalar/openapi-parser', node: NODE_LTS },
  { name: 'readme', package: '@readme/openapi-parser', node: NODE_HERE },
];
const DOCUMENTS = [
  { rendition: '3.1', path: DOCUMENT_31 },
  { rendition: '3.0', path: DOCUMENT_30 },
];
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

describe('validators', () => {
  for (const document of DOCUMENTS) {
    for (const validator of VALIDATORS)
      it(`${validator.package} accepts the ${document.rendition} document`, async () => {
        const missing = documentMissing(document.path);
        if (missing) throw new Error(missing);
        const result = await run(validator.node, [
          join(TIER, 'support', 'validate.mjs'),
          validator.name,
          document.path,
        ]);
        expect(result.code, result.output).toBe(0);
        const said = JSON.parse(result.output.trim().split('\n').at(-1)!) as { valid: boolean; messages: string[] };
        expect(said.messages.join('\n')).toBe('');
        expect(said.valid).toBe(true);
      });

    it(`Redocly's recommended-strict accepts the ${document.rendition} document`, async () => {
      const missing = documentMissing(document.path);
      if (missing) throw new Error(missing);
      const result = await run(NODE_HERE, [
        REDOCLY,
        'lint',
        '--config',
        join(TIER, 'redocly.yaml'),
        '--format=stylish',
        '--max-problems=40',
        document.path,
      ]);
      expect(result.code, result.output).toBe(0);
    });
  }
});
