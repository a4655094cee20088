/**
 * @service-api/openapi/fixtures: every fixture is valid against the contract (its operation's response schema for its
 * status, through @service-api/validators), copies are fresh, and unknown names are refused with what exists.
 */
import { readDocument, responseExamples, schemaExamples } from '@service-api/openapi';
import { responseFixture, responseFixtures, schemaFixture } from '@service-api/openapi/fixtures';
import { validateResponse } from '@service-api/validators';
import { describe, expect, it } from 'vitest';

type AnyOperation = Parameters<typeof validateResponse>[0];
type Responses = Record<string, { content?: Record<string, unknown> }>;
const doc = readDocument({ dereferenced: true }) as { paths: Record<string, Record<string, unknown>> };
/** The media types of each operation's response, by operationId and status. */
const mediaTypes = new Map(
  Object.values(doc.paths).flatMap((item) =>
    Object.values(item)
      .filter(
        (op): op is { operationId: string; responses: Responses } =>
          typeof op === 'object' && op !== null && 'operationId' in op,
      )
      .flatMap((op) =>
        Object.entries(op.responses).map(([status, r]) => [
          `${op.operationId} ${status}`,
          Object.keys(r.content ?? {}),
        ]),
      ),
  ),
);
const fixtures = Object.entries(responseExamples()).flatMap(([operationId, byStatus]) =>
  Object.entries(byStatus).flatMap(([status, byName]) =>
    Object.keys(byName).map((name) => [operationId, Number(status), name] as const),
  ),
);

describe('every response fixture', () => {
  it('exists', () => expect(fixtures.length).toBeGreaterThan(500));

  it.each(fixtures)('%s %i %s is valid against its response schema', (operationId, status, name) => {
    const value = responseFixture(operationId as never, status as never, name as never);
    const media = mediaTypes.get(`${operationId} ${status}`) ?? [];
    if (media.includes('application/json'))
      expect(validateResponse(operationId as AnyOperation, status, value)).toEqual({ valid: true, errors: [] });
    // A file, an archive or raw text: the example is the text of the body, which no JSON schema describes.
    else expect([media.length > 0, typeof value]).toEqual([true, 'string']);
  });
});

describe('every schema fixture', () => {
  const bySchema = Object.entries(schemaExamples()).flatMap(([schema, byName]) =>
    Object.keys(byName).map((name) => [schema, name] as const),
  );
  it('exists', () => expect(bySchema.length).toBeGreaterThan(80));

  it.each(bySchema)('%s %s is an example of a response typed by that schema', (schema, name) => {
    const value = schemaFixture(schema as never, name as never);
    const shownBy = Object.values(responseExamples()).flatMap((byStatus) =>
      Object.values(byStatus).filter((byName) => JSON.stringify(byName[name]) === JSON.stringify(value)),
    );
    expect(shownBy.length).toBeGreaterThan(0);
  });
});

describe('the accessors', () => {
  it('a fixture is a fresh copy each time', () => {
    const job = responseFixture('jobs/get-project-job', 200, 'SingleJob');
    job.name = 'changed';
    expect(responseFixture('jobs/get-project-job', 200, 'SingleJob').name).not.toBe('changed');
    expect(schemaFixture('Job', 'TokenJob')).toEqual(responseFixture('jobs/get-token-job', 200, 'TokenJob'));
  });

  it('responseFixtures holds every example of the status by name', () => {
    expect(Object.keys(responseFixtures('jobs/get-project-job', 403)).sort()).toEqual(
      ['ForbiddenError', 'SudoInsufficientScopeError', 'SudoNotAdminError'].sort(),
    );
  });

  it.each([
    [() => responseFixture('jobs/get-project-job', 200, 'Nope' as never), /has the examples SingleJob, not "Nope"/],
    [() => responseFixtures('jobs/get-project-job', 201 as never), /documents no examples for 201/],
    [() => schemaFixture('Job', 'Nope' as never), /Job has the examples .*TokenJob.*, not "Nope"/],
    [() => schemaFixture('NoSuchSchema' as never, 'x' as never), /No documented examples of the schema "NoSuchSchema"/],
  ])('refuses an unknown name naming what exists (%#)', (call, message) => {
    expect(call).toThrow(message);
  });
});
