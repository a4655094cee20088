/**
 * Conformance of the mock with the published document, for every operation the document has: adding a domain adds
 * its cases here with no new test code.
 */
import { describe, expect, it } from 'vitest';
import { listOperations, listResponses, requiresAuthentication, successStatus } from '../generators/lib/document.ts';
import { validateResponse } from '../generated/validators/dist/index.js';
import { publishedDocument } from './support/documents.ts';
import { useMock } from './support/mock.ts';
import { buildRequest, credentialsFor, invalidValue, jsonRequestBody, type BuiltRequest } from './support/requests.ts';

const doc = publishedDocument();
const operations = listOperations(doc);
const api = useMock();

async function send(request: BuiltRequest, credentials = { headers: {}, query: '' }): Promise<Response> {
  const separator = request.url.includes('?') ? '&' : '?';
  const url = `${api()}${request.url}${credentials.query ? separator + credentials.query : ''}`;
  return fetch(url, { method: request.method, headers: { ...request.headers, ...credentials.headers }, body: request.body });
}

it('the document has operations to check', () => {
  expect(operations.length).toBeGreaterThan(0);
});

describe.each(operations.map((entry) => [entry.operationId, entry] as const))('%s', (_id, entry) => {
  const status = successStatus(entry);
  const success = listResponses(doc, entry).find((r) => r.status === status);

  it(`answers ${status} to a request built from its examples, with a body the generated validator accepts`, async () => {
    expect(status, `${entry.operationId} documents no 2xx response`).toBeDefined();
    const response = await send(buildRequest(doc, entry), credentialsFor(doc, entry));
    const text = await response.text();
    expect(response.status, text).toBe(Number(status));
    if (success?.json?.content.schema) {
      const result = validateResponse(entry.operationId as never, Number(status), JSON.parse(text));
      expect(result.errors).toEqual([]);
    } else if (entry.method !== 'head' && success?.response.content) {
      expect(text.length, 'a documented body is sent').toBeGreaterThan(0);
    }
    for (const [name, header] of Object.entries(success?.response.headers ?? {})) {
      if ((header as { required?: boolean }).required) expect(response.headers.get(name), `header ${name}`).not.toBeNull();
    }
  });

  if (requiresAuthentication(entry)) it('answers 401 without credentials', async () => {
    const response = await send(buildRequest(doc, entry));
    expect(response.status).toBe(401);
    if (entry.method !== 'head') expect(await response.json()).toEqual({ message: expect.stringContaining('401') });
  });

  const anonymous = entry.security.some((requirement) => Object.keys(requirement).length === 0);
  if (anonymous) it(`answers ${status} without credentials, as it allows anonymous access`, async () => {
    const response = await send(buildRequest(doc, entry));
    expect(response.status).toBe(Number(status));
  });

  const body = jsonRequestBody(doc, entry);
  if (body?.strict) it('answers 4xx with a body naming an unknown request body field', async () => {
    const request = buildRequest(doc, entry);
    request.body = JSON.stringify({ ...(JSON.parse(String(request.body)) as object), unexpected_field: true });
    const response = await send(request, credentialsFor(doc, entry));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(((await response.json()) as { message?: string }).message).toContain('unexpected_field');
  });

  const target = entry.parameters.find((p) => (p.in === 'path' || p.in === 'query') && invalidValue(doc, p) !== undefined);
  if (target) it(`answers 4xx with a body naming the parameter for an invalid ${target.in} parameter ${target.name}`, async () => {
    const request = buildRequest(doc, entry, { overrides: { [target!.name]: invalidValue(doc, target!) } });
    const response = await send(request, credentialsFor(doc, entry));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(response.status).not.toBe(401);
    // A HEAD response has no body to name the field in.
    if (entry.method !== 'head') expect(((await response.json()) as { message?: string }).message).toContain(target!.name);
  });
});
