/**
 * `patternProperties` as TypeScript index signatures keyed by a template literal (`[key: `${string}_env`]: string`).
 * openapi-typescript turns them into a `string` index signature intersected with the documented properties, which
 * makes every documented property of another type `never` (`archive_trace_events: boolean & string`).
 */
import { transformSchemaObject, type TransformNodeOptions } from 'openapi-typescript';
import ts from 'typescript';

/** A key pattern as a template literal: its literal suffix after any prefix, or its literal prefix; else undefined. */
export function patternKey(pattern: string): { prefix: string; suffix: string } | { exact: string } | undefined {
  const anchoredStart = pattern.startsWith('^');
  const anchoredEnd = /(?<!\\)\$$/.test(pattern);
  const body = pattern.slice(anchoredStart ? 1 : 0, anchoredEnd ? -1 : undefined);
  // A top-level alternation (`a_x|b_y`) has no single prefix or suffix.
  if (body.replace(/\([^()]*\)/g, '').includes('|')) return undefined;
  if (anchoredStart && anchoredEnd && /^[A-Za-z0-9_-]+$/.test(body)) return { exact: body };
  let suffix = anchoredEnd ? /[A-Za-z0-9_-]*$/.exec(body)![0] : '';
  if (body[body.length - suffix.length - 1] === '\\') suffix = suffix.slice(1);
  if (suffix) return { prefix: '', suffix };
  const prefix = anchoredStart ? /^[A-Za-z0-9_-]*/.exec(body)![0] : '';
  // A literal followed by a quantifier is not a literal prefix (`ab*`): drop its last character.
  const safe = /^[*+?{]/.test(body.slice(prefix.length)) ? prefix.slice(0, -1) : prefix;
  return safe ? { prefix: safe, suffix: '' } : undefined;
}

function keyType(key: NonNullable<ReturnType<typeof patternKey>>): ts.TypeNode {
  if ('exact' in key) return ts.factory.createLiteralTypeNode(ts.factory.createStringLiteral(key.exact));
  const string = ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword);
  return ts.factory.createTemplateLiteralType(ts.factory.createTemplateHead(key.prefix), [
    ts.factory.createTemplateLiteralTypeSpan(string, ts.factory.createTemplateTail(key.suffix)),
  ]);
}

const composition = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'patternProperties'] as const;

/**
 * For openapi-typescript's `transform` hook: the core of an object schema with `patternProperties` whose patterns all
 * have a literal prefix or suffix, as its properties intersected with one template-literal index signature per
 * pattern. Undefined (openapi-typescript's own output) for any other schema.
 */
export function patternPropertiesType(
  schema: Record<string, unknown>,
  options: TransformNodeOptions,
): ts.TypeNode | undefined {
  const patterns = schema.patternProperties as Record<string, object> | undefined;
  if (!patterns || typeof patterns !== 'object') return undefined;
  const keys = Object.keys(patterns).map((p) => [patternKey(p), patterns[p]!] as const);
  if (keys.some(([key]) => key === undefined)) return undefined;
  const rest = Object.fromEntries(
    Object.entries(schema).filter(([name]) => !(composition as readonly string[]).includes(name)),
  );
  const signatures = keys.map(([key, value]) =>
    ts.factory.createIndexSignature(
      undefined,
      [ts.factory.createParameterDeclaration(undefined, undefined, 'key', undefined, keyType(key!))],
      transformSchemaObject(value as never, options),
    ),
  );
  const signaturesType = ts.factory.createTypeLiteralNode(signatures);
  const hasProperties =
    typeof schema.properties === 'object' && schema.properties !== null && Object.keys(schema.properties).length > 0;
  return hasProperties
    ? ts.factory.createIntersectionTypeNode([transformSchemaObject(rest as never, options), signaturesType])
    : signaturesType;
}
