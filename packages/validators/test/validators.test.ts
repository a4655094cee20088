import { describe, expect, it } from 'vitest';
import {
  formatErrors,
  responseValidators,
  schemaValidators,
  contractVersion,
  validateResponse,
  validateSchema,
} from '@service-api/validators';
import { listOperations, listResponses } from '../../../generators/lib/document.ts';
import { publishedDocument } from '../../../test/support/documents.ts';

const doc = publishedDocument();

describe('generated validators', () => {
  it('carry the spec version', () => {
    expect(contractVersion).toBe(doc.info.version);
  });

  it('exist for every component schema and every JSON response of every operation', () => {
    expect(Object.keys(schemaValidators).sort()).toEqual(Object.keys(doc.components?.schemas ?? {}).sort());
    for (const entry of listOperations(doc)) {
      for (const { status, json } of listResponses(doc, entry)) {
        if (json?.content.schema)
          expect(
            responseValidators[entry.operationId as keyof typeof responseValidators],
            `${entry.operationId} ${status}`,
          ).toHaveProperty(status);
      }
    }
  });

  const cases: [string, string, unknown, boolean][] = [
    ['a job status', 'JobStatus', 'running', true],
    ['an unknown job status', 'JobStatus', 'exploded', false],
    ['a coverage number or null', 'JobBase', null, false],
    ['a timestamp', 'Timestamp', '2025-03-11T10:02:11.912Z', true],
    ['a malformed timestamp', 'Timestamp', '11/03/2025', false],
    ['an open error body with extra fields', 'ErrorBody', { message: 'x', error: 'y' }, true],
    [
      'the small user object with a new field',
      'UserBasic',
      { id: 1, name: 'A', username: 'a', state: 'active', avatar_url: 'x', web_url: 'http://h/a', locked: false },
      true,
    ],
    [
      'the small user object without username',
      'UserBasic',
      { id: 1, name: 'A', state: 'active', avatar_url: 'x', web_url: 'http://h/a' },
      false,
    ],
  ];
  it.each(cases)('validate %s', (_title, schema, value, valid) => {
    expect(validateSchema(schema as never, value).valid).toBe(valid);
  });

  it('explain what is wrong in readable messages', () => {
    const result = validateResponse('jobs/get-allowed-agents', 200, { allowed_agents: [], job: { id: 'x' } });
    expect(result.valid).toBe(false);
    expect(result.errors).toContain("(root) must have required property 'pipeline'");
    expect(result.errors).toContain('/job/id must be integer');
    expect(formatErrors(null)).toEqual([]);
  });

  it('refuse unknown operations and statuses with a clear error', () => {
    expect(() => validateResponse('jobs/nope' as never, 200, {})).toThrow('Unknown operation jobs/nope');
    expect(() => validateResponse('jobs/list-project-jobs', 201 as never, {})).toThrow(
      'documents no JSON body for status 201',
    );
  });
});
