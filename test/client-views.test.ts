/**
 * The client generator on a list keyed on a parameter (`x-variants`): the plain method refuses the parameter and is
 * typed by the record of a call without it; each other view is a method of its own, named by the value that chooses
 * it (`view=simple`: `.simple`) or, for `true`, by the parameter (`statistics=true`: `.statistics`). A name that would
 * hide a member of the method, or a view chosen by another value, fails the build. Type tests of the real document's
 * lists: packages/client/test/variant-lists.test-d.ts.
 */
import { describe, expect, it } from 'vitest';
import { generateClient } from '../generators/client.ts';
import type { OpenApiDocument } from '../generators/lib/openapi.ts';
import { mini } from './support/mini.ts';

/** The mini document with a paginated widget list keyed on `parameter` (a text or a boolean query parameter). */
function withKeyedList(parameter: string, type: 'string' | 'boolean', values: Record<string, string>): OpenApiDocument {
  const doc = structuredClone(mini) as OpenApiDocument & { paths: Record<string, unknown> };
  const schemas = doc.components!.schemas as Record<string, unknown>;
  schemas.WidgetSimple = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
  doc.paths['/widgets'] = {
    get: {
      operationId: 'widgets/list-widgets',
      summary: 'List widgets',
      tags: ['widgets'],
      parameters: [{ name: parameter, in: 'query', schema: { type } }],
      'x-pagination': ['offset'],
      'x-variants': { parameter, values, otherwise: 'Widget' },
      responses: {
        '200': {
          description: 'The widgets.',
          content: {
            'application/json': {
              schema: { type: 'array', items: { anyOf: [{ $ref: '#/components/schemas/Widget' }] } },
            },
          },
        },
      },
    },
  };
  return doc;
}

async function operations(doc: OpenApiDocument): Promise<string> {
  const files = await generateClient(doc);
  return files.find((file) => file.path.endsWith('/operations.ts'))!.contents;
}

describe('the client generator on a list keyed on a parameter', () => {
  it('refuses view on the plain method, types it by the full record, and adds .simple sending view=simple', async () => {
    const source = await operations(withKeyedList('view', 'string', { simple: 'WidgetSimple' }));
    expect(source).toContain(
      'export interface ListWidgetsInput extends WithParameter<Input<"widgets/list-widgets">, "view", never> {',
    );
    expect(source).toContain('extra?: ExtraParameters & { query?: { readonly "view"?: never } };');
    expect(source).toMatch(/listWidgets: PaginatedMethod<ListWidgetsInput, T\.Widget, true, [^\n]*> & \{\n/);
    expect(source).toMatch(
      /\n {6}simple: PaginatedMethod<WithParameter<ListWidgetsInput, "view", "simple">, T\.WidgetSimple, true, /,
    );
    expect(source).toContain('"views":{"simple":{"view":"simple"}}');
    expect(source).not.toMatch(/VariantMethod|When</);
  });

  it('names a view chosen by true after its parameter, and lets the plain method send false', async () => {
    const source = await operations(withKeyedList('statistics', 'boolean', { true: 'WidgetSimple' }));
    expect(source).toContain('WithParameter<Input<"widgets/list-widgets">, "statistics", false>');
    expect(source).toMatch(/\n {6}statistics: PaginatedMethod<WithParameter<ListWidgetsInput, "statistics", true>/);
    expect(source).toContain('"views":{"statistics":{"statistics":true}}');
  });

  it.each([
    ['withResponse', 'string', { withResponse: 'WidgetSimple' }, /would hide a member/],
    ['length', 'string', { length: 'WidgetSimple' }, /would hide a member/],
    ['a boolean false', 'boolean', { false: 'WidgetSimple' }, /chosen by true or by a text/],
  ] as const)('fails on a view named %s', async (_name, type, values, message) => {
    await expect(operations(withKeyedList('view', type, values))).rejects.toThrow(message);
  });
});
