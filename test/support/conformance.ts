/**
 * The per-operation conformance cases, defined once and run against each target (the mock in
 * `test/conformance.test.ts`, the fake in `packages/fake/test/conformance.test.ts`): adding a domain to the document adds its
 * cases with no new test code. A target says how to reach it, which request and credentials make sense for it, and
 * what its answer to that request must be.
 */
import { describe, expect, it } from 'vitest';
import {
  listOperations,
  requiresAuthentication,
  successStatus,
  type OperationEntry,
  type ResponseEntry,
} from '../../generators/lib/document.ts';
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { validateResponse } from '@service-api/validators';
import {
  buildRequest,
  credentialsFor,
  invalidValue,
  jsonRequestBody,
  type BuildOptions,
  type BuiltRequest,
  type Credentials,
} from './requests.ts';

export interface ConformanceTarget {
  /** The API root, `http://host:port/api/v4`. */
  api: () => string;
  /** The request of the main case (default: built from the operation's examples). */
  request?: (entry: OperationEntry, options?: BuildOptions) => BuiltRequest;
  /** Credentials for an operation (default: the first security requirement with a placeholder token). */
  credentials?: (entry: OperationEntry) => Credentials;
  /** Checks the answer to the main request; `expectDocumented` checks status, body and headers against one response. */
  answer: (entry: OperationEntry, response: Response, text: string) => void;
  /** Runs before the main case (a stateful target restores its data and creates what the request names). */
  prepare?: (entry: OperationEntry) => Promise<void>;
  /** The main case's title. */
  title: (entry: OperationEntry) => string;
}

export function send(
  api: string,
  request: BuiltRequest,
  credentials: Credentials = { headers: {}, query: '' },
): Promise<Response> {
  const separator = request.url.includes('?') ? '&' : '?';
  const url = `${api}${request.url}${credentials.query ? separator + credentials.query : ''}`;
  return fetch(url, {
    method: request.method,
    headers: { ...request.headers, ...credentials.headers },
    body: request.body,
  });
}

/** The documented response of `status`: its JSON body valid against the generated validator, its required headers sent. */
export function expectDocumented(
  entry: OperationEntry,
  documented: ResponseEntry | undefined,
  response: Response,
  text: string,
): void {
  expect(documented, `${entry.operationId} documents no ${response.status} response: ${text}`).toBeDefined();
  if (documented?.json?.content.schema && entry.method !== 'head') {
    const result = validateResponse(entry.operationId as never, response.status, JSON.parse(text));
    expect(result.errors, text).toEqual([]);
  } else if (entry.method !== 'head' && documented?.response.content && response.status !== 204) {
    expect(text.length, 'a documented body is sent').toBeGreaterThan(0);
  }
  for (const [name, header] of Object.entries(documented?.response.headers ?? {})) {
    if ((header as { required?: boolean }).required)
      expect(response.headers.get(name), `header ${name}`).not.toBeNull();
  }
}

/** Skips the case, naming the operation, when the target has no handler for it yet and it answered 501. */
/** One `describe` per operation of `doc`: the main case, then the contract's 401, anonymous, unknown-field and invalid-parameter cases. */
export function describeConformance(doc: OpenApiDocument, target: ConformanceTarget): void {
  const operations = listOperations(doc);
  const requestFor =
    target.request ?? ((entry: OperationEntry, options?: BuildOptions) => buildRequest(doc, entry, options));
  const credentials = target.credentials ?? ((entry: OperationEntry) => credentialsFor(doc, entry));

  it('the document has operations to check', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  describe.each(operations.map((entry) => [entry.operationId, entry] as const))('%s', (_id, entry) => {
    it(target.title(entry), async () => {
      await target.prepare?.(entry);
      const response = await send(target.api(), requestFor(entry), credentials(entry));
      target.answer(entry, response, await response.text());
    });

    if (requiresAuthentication(entry))
      it('answers 401 without credentials', async () => {
        const response = await send(target.api(), requestFor(entry));
        expect(response.status).toBe(401);
        if (entry.method !== 'head') expect(await response.json()).toEqual({ message: expect.stringContaining('401') });
      });

    const anonymous = entry.security.some((requirement) => Object.keys(requirement).length === 0);
    if (anonymous)
      it(`answers ${successStatus(entry)} without credentials, as it allows anonymous access`, async () => {
        await target.prepare?.(entry);
        const response = await send(target.api(), requestFor(entry));
        expect(response.status).toBe(Number(successStatus(entry)));
      });

    const body = jsonRequestBody(doc, entry);
    if (body?.strict)
      it('answers 4xx with a body naming an unknown request body field', async () => {
        const request = requestFor(entry);
        request.body = JSON.stringify({ ...(JSON.parse(String(request.body)) as object), unexpected_field: true });
        const response = await send(target.api(), request, credentials(entry));
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(((await response.json()) as { message?: string }).message).toContain('unexpected_field');
      });

    const parameter = entry.parameters.find(
      (p) => (p.in === 'path' || p.in === 'query') && invalidValue(doc, p) !== undefined,
    );
    if (parameter)
      it(`answers 4xx with a body naming the parameter for an invalid ${parameter.in} parameter ${parameter.name}`, async () => {
        const request = requestFor(entry, { overrides: { [parameter.name]: invalidValue(doc, parameter) } });
        const response = await send(target.api(), request, credentials(entry));
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.status).not.toBe(401);
        // A HEAD response has no body to name the field in.
        if (entry.method !== 'head')
          expect(((await response.json()) as { message?: string }).message).toContain(parameter.name);
      });
  });
}
