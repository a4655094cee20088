/**
 * The bundle step's rewrites into the shapes of `openapi/conventions.md` ("Portable shapes") that the sources leave
 * to it, so that each fact stays written once in `openapi/`:
 * - a schema whose `required` names properties of an `allOf` base (`allOf: [{$ref: Base}]` beside `required`, or a
 *   member that holds only `required`) gets the base's properties copied beside its `required` (hey-api reads the
 *   split form as the base with every field optional);
 * - every integer without a `format` gets one: `int32` where its bounds (`minimum`/`maximum`, `enum` or `const`) keep
 *   it within 32 bits, `int64` otherwise (Java, Kotlin and C# generators read a bare `integer` as 32 bits).
 * - an `allOf` member that carries an `if`/`then` rule beside properties is split in two: its properties (and
 *   `required`) and its rule (openapi-generator drops a member that holds a rule);
 * - a schema whose only `if`/`then` rule sits in an `allOf` member of its own gets the rule at its top level (hey-api
 *   reads that member as an open map and its zod intersects it with the record: `Unmergable intersection`).
 * None changes what a schema accepts. A base that only served as the source of copies is left out of the document.
 * The house lint rules check the result (`scripts/spectral/`).
 */
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { componentName } from '../../packages/server/src/openapi-model.ts';

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose values are data, not schemas or OpenAPI objects: never rewritten. */
const DATA_KEYS = new Set([
  'example',
  'examples',
  'default',
  'const',
  'enum',
  'value',
  'x-enum-varnames',
  // Read by our validators only, never by third-party tools.
  'x-query-schema',
]);

/** Base keys that describe the base itself, not the shape it gives a record that copies it. */
const OWN_KEYS = new Set(['description', 'title', 'x-seed', '$comment']);

/** Rewrites the document in place into the portable shapes and returns it. */
export function portableShapes(doc: OpenApiDocument): OpenApiDocument {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const bases = new Set<string>();
  visit(doc, (node) => {
    if (splitsRequired(node)) flatten(node, schemas, bases);
  });
  // A base that only served as the source of the copies is not published on its own (nothing names it any more).
  const text = JSON.stringify(doc);
  for (const name of bases) if (!text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  visit(doc, (node) => {
    if (Array.isArray(node.allOf)) splitRuleMembers(node);
  });
  visit(doc, (node) => {
    const rule = soleRuleMember(node);
    if (rule !== undefined) hoistRule(node, rule);
  });
  visit(doc, (node) => {
    if (isInteger(node) && node.format === undefined) withFormat(node, fitsInt32(node) ? 'int32' : 'int64');
  });
  return doc;
}

/** Keys whose values map names to objects: a name there (`default`, `value`) is not a keyword. */
const NAME_MAPS = new Set([
  'paths',
  'schemas',
  'responses',
  'parameters',
  'headers',
  'content',
  'properties',
  'patternProperties',
  '$defs',
  'dependentSchemas',
]);

/** Calls `apply` on every object of the document outside data values, parents before their children. */
function visit(root: unknown, apply: (node: Schema) => void): void {
  const seen = new Set<unknown>();
  const walk = (value: unknown, names: boolean): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) walk(item, false);
      return;
    }
    if (!names) apply(value as Schema);
    for (const [key, child] of Object.entries(value))
      if (names || !DATA_KEYS.has(key)) walk(child, !names && NAME_MAPS.has(key));
  };
  walk(root, false);
}

/** An `allOf` member that only adds names to `required`. */
function requiredOnly(member: unknown): member is Schema & { required: string[] } {
  return (
    isObject(member) &&
    Array.isArray(member.required) &&
    Object.keys(member).every(
      (key) => key === 'required' || key === 'description' || (key === 'type' && member.type === 'object'),
    )
  );
}

/** A schema with an `allOf` base whose `required` (its own or a required-only member's) names fields it does not declare. */
function splitsRequired(node: Schema): boolean {
  const members = node.allOf;
  if (!Array.isArray(members) || !members.some((m) => isObject(m) && typeof m.$ref === 'string')) return false;
  const own = isObject(node.properties) ? node.properties : {};
  const names = [node.required ?? [], ...members.filter(requiredOnly).map((m) => m.required)].flat() as string[];
  return names.some((name) => !Object.hasOwn(own, name));
}

/** Copies each referenced base's properties, required names and rules into `node`, which keeps its own on top. */
function flatten(node: Schema, schemas: Record<string, unknown>, bases: Set<string>): void {
  const inherited: Schema = {};
  const properties: Schema = {};
  const required: string[] = [];
  const rules: unknown[] = [];
  for (const member of node.allOf as unknown[]) {
    const ref = isObject(member) && Object.keys(member).length === 1 ? member.$ref : undefined;
    if (typeof ref === 'string') {
      const name = componentName(ref);
      const base = name === undefined ? undefined : schemas[name];
      if (!isObject(base) || !isObject(base.properties))
        throw new Error(`Cannot copy ${ref} beside a required list: it is not a component schema with properties`);
      if (splitsRequired(base)) flatten(base, schemas, bases);
      bases.add(name as string);
      const { properties: baseProperties, required: baseRequired = [], allOf: baseRules = [], ...rest } = base;
      Object.assign(properties, baseProperties);
      required.push(...(baseRequired as string[]));
      rules.push(...(baseRules as unknown[]));
      for (const [key, value] of Object.entries(rest)) if (!OWN_KEYS.has(key)) inherited[key] ??= value;
    } else if (requiredOnly(member)) required.push(...member.required);
    else rules.push(member);
  }
  const { allOf: _allOf, required: ownRequired = [], properties: ownProperties = {}, ...own } = node;
  const flat: Schema = { ...own };
  for (const [key, value] of Object.entries(inherited)) if (!(key in flat)) flat[key] = value;
  flat.required = [...new Set([...required, ...(ownRequired as string[])])];
  flat.properties = { ...properties, ...(ownProperties as Schema) };
  if (rules.length > 0) flat.allOf = rules;
  for (const key of Object.keys(node)) delete node[key];
  Object.assign(node, flat);
}

/** An `allOf` member that holds only `if`/`then`/`else` (with `type: object` and a description). */
export function rulesOnly(member: unknown): member is Schema {
  return (
    isObject(member) &&
    'if' in member &&
    Object.keys(member).every(
      (key) => ['if', 'then', 'else', 'description'].includes(key) || (key === 'type' && member.type === 'object'),
    )
  );
}

const RULE_KEYS = ['if', 'then', 'else'];

/**
 * Splits each inline `allOf` member that carries an `if`/`then` rule beside other keywords (properties, required) into
 * a member with those keywords and a member with the rule alone (which the next step moves to the schema's top level
 * when it is the schema's only rule). openapi-generator drops a whole member that holds a rule (`Job` lost six
 * properties); the properties stay in a member of their own, because openapi-python-client drops a schema whose
 * `allOf` has properties beside it.
 */
function splitRuleMembers(node: Schema): void {
  const members = node.allOf as unknown[];
  for (let i = members.length - 1; i >= 0; i--) {
    const member = members[i];
    if (!isObject(member) || !RULE_KEYS.some((key) => key in member) || rulesOnly(member)) continue;
    const rule: Schema = { type: 'object' };
    const rest: Schema = {};
    for (const [key, value] of Object.entries(member)) (RULE_KEYS.includes(key) ? rule : rest)[key] = value;
    members.splice(i, 1, rest, rule);
  }
}

/** The index of the schema's only rules member, when the schema holds no rule of its own. */
function soleRuleMember(node: Schema): number | undefined {
  if (!Array.isArray(node.allOf) || 'if' in node || 'then' in node || 'else' in node) return undefined;
  if (node.type !== undefined && node.type !== 'object') return undefined;
  const indexes = node.allOf.flatMap((member, i) => (rulesOnly(member) ? [i] : []));
  return indexes.length === 1 ? indexes[0] : undefined;
}

/**
 * Moves the rules member's `if`/`then`/`else` (and its description, after the schema's own) to the schema itself,
 * with the member's `type: object`, which held for the whole schema already.
 */
function hoistRule(node: Schema, index: number): void {
  const members = node.allOf as Schema[];
  const { if: condition, then, else: otherwise, description, type } = members[index] as Schema;
  members.splice(index, 1);
  if (members.length === 0) delete node.allOf;
  if (type !== undefined) node.type ??= type;
  if (typeof description === 'string')
    node.description = typeof node.description === 'string' ? `${node.description} ${description}` : description;
  Object.assign(
    node,
    { if: condition },
    then === undefined ? {} : { then },
    otherwise === undefined ? {} : { else: otherwise },
  );
}

function isInteger(node: Schema): boolean {
  return node.type === 'integer' || (Array.isArray(node.type) && node.type.includes('integer'));
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const inInt32 = (value: unknown) => typeof value === 'number' && value >= INT32_MIN && value <= INT32_MAX;

/** Whether the schema's own bounds keep every integer it accepts within 32 bits. */
export function fitsInt32(node: Schema): boolean {
  if (node.const !== undefined) return inInt32(node.const);
  if (Array.isArray(node.enum)) return node.enum.every((value) => value === null || inInt32(value));
  const low = node.minimum ?? node.exclusiveMinimum;
  const high = node.maximum ?? node.exclusiveMaximum;
  return inInt32(low) && inInt32(high);
}

/** Adds `format` right after `type`, where a reader looks for it. */
function withFormat(node: Schema, format: string): void {
  const entries = Object.entries(node);
  const at = entries.findIndex(([key]) => key === 'type') + 1;
  entries.splice(at, 0, ['format', format]);
  for (const key of Object.keys(node)) delete node[key];
  Object.assign(node, Object.fromEntries(entries));
}
