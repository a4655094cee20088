/**
 * The OpenAPI 3.0.3 rendition of an OpenAPI 3.1 document, for tools that read 3.0 only.
 *
 * Rule: the 3.0 schema of every value accepts at least what the 3.1 schema accepts (never stricter), as exactly as
 * 3.0 can say it, and nothing is dropped: a JSON Schema 2020-12 keyword that 3.0 lacks is kept verbatim as
 * `x-<keyword>` (`$comment` as `x-comment`), and a schema that loses a rule that way says so in its description.
 * Every conversion is listed in openapi/extensions.md ("The OpenAPI 3.0 rendition") and has a table test in
 * test/down-convert.test.ts.
 *
 * Why not @apiture/openapi-down-convert (0.14.2, the maintained npm package for this): it drops `patternProperties`
 * and `contentMediaType` without a trace, leaves `if`/`then`/`else`, `prefixItems`, `dependentSchemas`,
 * `propertyNames` and numeric `exclusiveMinimum` in place (the result fails a 3.0 validator), keeps multi-type and
 * `oneOf [X, null]` schemas as they are, skips `const: false`/`0`, and ships TypeScript 4 as a runtime dependency.
 */
import { componentName } from '../../packages/server/src/openapi-model.ts';
import type { JsonSchema, OpenApiDocument } from './openapi.ts';

type Json = Record<string, unknown>;

/** The keywords of the OpenAPI 3.0 Schema Object, besides `x-` extensions. */
const SCHEMA_30 = new Set([
  '$ref',
  'title',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'enum',
  'type',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'items',
  'properties',
  'additionalProperties',
  'description',
  'format',
  'default',
  'nullable',
  'discriminator',
  'readOnly',
  'writeOnly',
  'xml',
  'externalDocs',
  'example',
  'deprecated',
]);

/**
 * 2020-12 keywords 3.0 lacks that constrain a value: kept as `x-<keyword>`, the 3.0 schema accepts more than the 3.1
 * one. The others 3.0 lacks (`$schema`, `$comment`, `contentMediaType` …) only annotate.
 */
const RULES_31 = new Set([
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'patternProperties',
  'prefixItems',
  'contains',
  'minContains',
  'maxContains',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

/** Keywords that apply to one JSON type only: a multi-type schema hands them to the branch of their type. */
const TYPE_KEYWORDS: Record<string, string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'contentMediaType', 'contentEncoding', 'contentSchema'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems', 'uniqueItems', 'contains', 'minContains', 'maxContains'],
  object: [
    'properties',
    'required',
    'additionalProperties',
    'patternProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'dependentRequired',
    'dependentSchemas',
    'unevaluatedProperties',
  ],
};
TYPE_KEYWORDS.integer = TYPE_KEYWORDS.number!;
/** The type a `format` belongs to when a multi-type schema is split (every other format describes strings). */
const FORMAT_TYPES: Record<string, string[]> = {
  int32: ['integer'],
  int64: ['integer'],
  float: ['number'],
  double: ['number'],
};

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const jsonType = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
/** Schemas already in their 3.0 form (null-only members, the `not` of conditional rules): `convert` keeps them. */
const written = new WeakSet<object>();
const extension = (keyword: string) => `x-${keyword.replace(/^\$/, '')}`;

/** A schema that admits `null` alone: `{type: 'null'}` (with annotations) or `{const: null}`. */
function isNullOnly(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const { type, const: constant, description, title, ...rest } = schema;
  const onlyNull = type === 'null' || (Array.isArray(type) && type.length === 1 && type[0] === 'null');
  return (onlyNull || ('const' in schema && constant === null && type === undefined)) && Object.keys(rest).length === 0;
}

/** A converted schema, and whether the conversion lost a rule (the 3.0 schema accepts more). */
interface Converted {
  schema: unknown;
  lossy: boolean;
}

/**
 * Converts the schemas of one document. Component schemas are converted once; a `$ref` is lossy when its target is
 * (a reference in a cycle counts as lossy: what follows from it is never stricter).
 */
class SchemaConverter {
  private readonly done = new Map<string, Converted>();
  private readonly converting = new Set<string>();

  constructor(private readonly components: Record<string, unknown>) {}

  component(name: string): Converted {
    const ref = `#/components/schemas/${name}`;
    const known = this.done.get(ref);
    if (known) return known;
    this.converting.add(ref);
    const converted = this.convert(this.components[name]);
    this.converting.delete(ref);
    this.done.set(ref, converted);
    return converted;
  }

  private refLossy(ref: string): boolean {
    if (ref.includes('/$defs/')) throw new Error(`${ref}: a reference into $defs has no OpenAPI 3.0 form`);
    if (this.converting.has(ref)) return true;
    const name = componentName(ref);
    return name !== undefined && name in this.components ? this.component(name).lossy : false;
  }

  convert(input: unknown): Converted {
    if (isObject(input) && written.has(input)) return { schema: input, lossy: false };
    // The bundle's mark of a nullable property for openapi-generator's 3.1 reading: 3.0's `nullable` says it.
    if (isObject(input) && 'x-nullable' in input) {
      const { 'x-nullable': _, ...unmarked } = input;
      return this.convert(unmarked);
    }
    if (input === true) return { schema: {}, lossy: false };
    if (input === false) return { schema: { not: {} }, lossy: false };
    if (!isObject(input)) return { schema: input, lossy: false };
    if (typeof input.$ref === 'string' && Object.keys(input).length === 1)
      return this.nullablePrimitive(input.$ref) ?? { schema: { $ref: input.$ref }, lossy: this.refLossy(input.$ref) };
    return this.convertObject(input);
  }

  private convertObject(input: Json): Converted {
    const s: Json = { ...input };
    let nullable = s.nullable === true;
    // A $ref with sibling keywords: 3.0 ignores the siblings of a $ref, allOf keeps both.
    if (typeof s.$ref === 'string') {
      s.allOf = [{ $ref: s.$ref }, ...((s.allOf as unknown[]) ?? [])];
      delete s.$ref;
    }
    nullable = takeNullMembers(s) || nullable;
    nullable = this.nullableAlternatives(s) || nullable;
    if ('const' in s) {
      const constant = s.const;
      s.enum = Array.isArray(s.enum) ? s.enum.filter((value) => same(value, constant)) : [constant];
      delete s.const;
    }
    typeOfValues(s);
    nullable = splitTypes(s) || nullable;
    if (Array.isArray(s.enum) && s.enum.includes(null)) nullable = true;
    if (Array.isArray(s.examples)) {
      if (!('example' in s) && s.examples.length > 0) s.example = s.examples[0];
      if (s.examples.length > 1 || s.example !== s.examples[0]) s['x-examples'] = s.examples;
      delete s.examples;
    }
    exclusiveBound(s, 'exclusiveMinimum', 'minimum', (a, b) => a >= b);
    exclusiveBound(s, 'exclusiveMaximum', 'maximum', (a, b) => a <= b);
    if (s.format === undefined && s.contentEncoding === 'base64') s.format = 'byte';
    else if (s.format === undefined && typeof s.contentMediaType === 'string' && s.contentEncoding === undefined)
      s.format = 'binary';
    if (Array.isArray(s.required) && s.required.length === 0) delete s.required;

    let lossy = false;
    const rules: string[] = [];
    lossy = this.conditionals(s) || lossy;
    lossy = this.tuple(s) || lossy;
    lossy = this.patternProperties(s) || lossy;
    lossy = this.subschemas(s) || lossy;
    if (typeof input.$ref === 'string') nullable = mergeInlineMember(s) || nullable;
    const out: Json = {};
    for (const [key, value] of Object.entries(s)) {
      if (key === 'nullable') continue;
      if (SCHEMA_30.has(key) || key.startsWith('x-')) out[key] = value;
      else {
        out[extension(key)] = value;
        if (RULES_31.has(key)) rules.push(extension(key));
      }
      if (key === 'type' && nullable) out.nullable = true;
    }
    if (nullable && !('nullable' in out)) out.nullable = true;
    // 3.0 linters (Redocly's nullable-type-sibling) read `nullable` only beside a `type`: give it the referenced one.
    if (nullable && out.type === undefined) {
      const type = this.memberType(out.allOf);
      if (type !== undefined) out.type = type;
      // 3.0.3: nullable beside no type adds nothing (an enum that lists null admits it already).
      else delete out.nullable;
    }
    const moved = Object.keys(out).filter((key) => /^x-(not|oneOf)$/.test(key) && !(key in input));
    rules.push(...moved);
    if (rules.length > 0) {
      const note = `Rules OpenAPI 3.0 cannot state are kept as JSON Schema 2020-12 in ${rules.map((r) => `\`${r}\``).join(', ')}.`;
      out.description = typeof out.description === 'string' ? `${out.description}\n\n${note}` : note;
    }
    return { schema: out, lossy: lossy || rules.length > 0 };
  }

  /**
   * A nullable primitive component (`NullableTimestamp`) written in place of its `$ref`: openapi-zod-client drops the
   * `nullable` of a referenced primitive component and refuses null.
   */
  private nullablePrimitive(ref: string): Converted | undefined {
    const name = componentName(ref);
    if (name === undefined || !(name in this.components) || this.converting.has(ref)) return undefined;
    const converted = this.component(name);
    const { schema } = converted;
    const primitive = isObject(schema) && ['string', 'number', 'integer', 'boolean'].includes(String(schema.type));
    return primitive && isObject(schema) && schema.nullable === true
      ? { ...converted, schema: structuredClone(schema) }
      : undefined;
  }

  /** Whether a reference to the component is written in place (a nullable primitive). */
  inlines(name: string): boolean {
    return this.nullablePrimitive(`#/components/schemas/${name}`) !== undefined;
  }

  /** `oneOf`/`anyOf` members, a null-only one written as 3.0.3's null-only member. */
  private alternatives(members: unknown[]): unknown[] {
    if (!members.some(isNullOnly)) return members;
    const types = members.filter((member) => !isNullOnly(member)).map((member) => this.typeOf(member));
    const type = types.find((t) => t !== undefined) ?? 'object';
    return members.map((member) => (isNullOnly(member) ? nullMember(type) : member));
  }

  /**
   * A null member that stays a member of a `oneOf`/`anyOf`: the schema itself is nullable too, beside the one type of
   * the other members, and a `oneOf` of one other member becomes an `anyOf` (a null-only member overlaps nothing).
   * openapi-zod-client reads `nullable` only on the schema itself (it drops the null member's), and Redocly calls a
   * `oneOf` illogical beside a schema that admits null too. Returns whether the schema became nullable.
   */
  private nullableAlternatives(s: Json): boolean {
    if (s.type !== undefined) return false;
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const members = s[keyword];
      if (!Array.isArray(members) || !members.some(isNullOnly)) continue;
      const others = members.filter((member) => !isNullOnly(member));
      const types = new Set(others.map((member) => this.typeOf(member)));
      const [type] = types;
      if (types.size !== 1 || type === undefined) continue;
      if (keyword === 'oneOf') {
        if (others.length !== 1 || 'anyOf' in s) continue;
        s.anyOf = members;
        delete s.oneOf;
      }
      s.type = type;
      return true;
    }
    return false;
  }

  /** The one type the members of an `allOf` share (a component's through its `$ref`), or undefined. */
  private memberType(members: unknown): string | undefined {
    if (!Array.isArray(members)) return undefined;
    const types = new Set(members.map((member) => this.typeOf(member)));
    const [type] = types;
    return types.size === 1 ? type : undefined;
  }

  /** A schema's one non-null type (a component's through its `$ref`; `object` where it has `properties`). */
  private typeOf(member: unknown): string | undefined {
    if (!isObject(member)) return undefined;
    const name = typeof member.$ref === 'string' ? componentName(member.$ref) : undefined;
    const schema = name !== undefined && name in this.components ? this.components[name] : member;
    if (!isObject(schema)) return undefined;
    const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : [schema.type];
    if (type.length === 1 && typeof type[0] === 'string' && type[0] !== 'null') return type[0];
    return 'properties' in schema ? 'object' : undefined;
  }

  /**
   * `if`/`then`/`else`, `dependentSchemas` and `dependentRequired` in 3.0, as the `not` of what breaks them:
   * `if A then T else E` is `not: {anyOf: [{allOf: [A, {not: T}]}, {allOf: [{not: A}, {not: E}]}]}` and
   * `dependentSchemas: {k: S}` is `not: {allOf: [{required: [k]}, {not: S}]}` (several rules: an `anyOf` of them).
   * A `not` leaves the record as generators read it: openapi-generator merges the `required` and `properties` of an
   * `allOf` member or an `anyOf` beside `properties` into its model (a conditional field became required) and ignores
   * `not`. A condition that loses a rule in 3.0 (`propertyNames`: the 3.0 schema would refuse more), or a schema
   * that has a `not` already, keeps its rule in `x-` fields.
   */
  private conditionals(s: Json): boolean {
    if ('not' in s) return false;
    let lossy = false;
    // Under two negations a schema that admits more in 3.0 only lets more through: `then`, `else` and a dependent
    // schema may lose a rule (the result is looser, never stricter); the condition may not.
    const twice = (schema: unknown) => {
      const converted = this.convert(schema);
      lossy = lossy || converted.lossy;
      return { not: converted.schema };
    };
    const breaks: unknown[] = [];
    const condition = 'if' in s ? this.convert(s.if) : undefined;
    if (condition && !condition.lossy) {
      const test = namesDefined(condition.schema);
      if ('then' in s) breaks.push({ allOf: [test, twice(s.then)] });
      if ('else' in s) breaks.push({ allOf: [{ not: test }, twice(s.else)] });
      delete s.if;
      delete s.then;
      delete s.else;
    }
    for (const keyword of ['dependentSchemas', 'dependentRequired'] as const) {
      const rules = s[keyword];
      if (!isObject(rules)) continue;
      for (const [name, rule] of Object.entries(rules)) {
        const then = keyword === 'dependentRequired' ? { required: rule } : rule;
        breaks.push({ allOf: [namesDefined({ required: [name] }), twice(then)] });
      }
      delete s[keyword];
    }
    if (breaks.length === 0) return false;
    const not = breaks.length === 1 ? (breaks[0] as Json) : { anyOf: breaks };
    written.add(not);
    s.not = not;
    return lossy;
  }

  /** `prefixItems` (a tuple): 3.0's `items` admits any of the tuple's members; the tuple itself is kept. */
  private tuple(s: Json): boolean {
    const prefix = s.prefixItems;
    if (!Array.isArray(prefix)) {
      if (s.type === 'array' && !('items' in s)) s.items = {};
      if (s.items === false) {
        s.maxItems = 0;
        s.items = {};
      }
      return false;
    }
    const rest = s.items;
    if (rest === false || (isObject(rest) && same(rest, { not: {} })))
      s.maxItems = Math.min(prefix.length, typeof s.maxItems === 'number' ? s.maxItems : Number.POSITIVE_INFINITY);
    const open = rest === undefined || rest === true;
    const closed = rest === false || (isObject(rest) && same(rest, { not: {} }));
    const members = closed ? prefix : [...prefix, rest];
    // One member per distinct schema: linters call repeated alternatives illogical, and they admit nothing more.
    const distinct = this.unsubsumed(members.filter((m, i) => members.findIndex((other) => same(other, m)) === i));
    s.items = open ? {} : distinct.length === 1 ? distinct[0] : { anyOf: distinct };
    return true;
  }

  /**
   * Tuple members less the ones a bare sibling `{type: T}` admits whole (a member whose own schema, or referenced
   * component, has the one type T and no null): `anyOf [string, <an enum of strings>]` is `string`. ogen tells
   * `anyOf` members apart by JSON type only and skips an operation with two string members.
   */
  private unsubsumed(members: unknown[]): unknown[] {
    const bare = new Set(
      members
        .filter((m) => isObject(m) && Object.keys(m).length === 1 && typeof m.type === 'string')
        .map((m) => (m as Json).type),
    );
    const typeOnly = (member: unknown) => {
      const name = isObject(member) && typeof member.$ref === 'string' ? componentName(member.$ref) : undefined;
      const schema = name !== undefined ? this.components[name] : member;
      return isObject(schema) && typeof schema.type === 'string' && schema.nullable !== true ? schema.type : undefined;
    };
    return members.filter(
      (m) => (isObject(m) && Object.keys(m).length === 1 && typeof m.type === 'string') || !bare.has(typeOnly(m)),
    );
  }

  /**
   * `patternProperties`, kept as `x-patternProperties`: 3.0 would hold the matching properties to
   * `additionalProperties`, which therefore admits the pattern schemas too.
   */
  private patternProperties(s: Json): boolean {
    if (!isObject(s.patternProperties)) return false;
    const extra = s.additionalProperties;
    if (extra !== undefined && extra !== true) {
      const patterns = Object.values(s.patternProperties);
      s.additionalProperties = { anyOf: extra === false ? patterns : [extra, ...patterns] };
    }
    return true;
  }

  /**
   * Converts the subschemas of 3.0's keywords. A `not` whose schema lost a rule would refuse more than in 3.1: it is
   * kept as `x-not` instead; a `oneOf` with such a member could find two matches: it becomes an `anyOf`, the original
   * kept as `x-oneOf`.
   */
  private subschemas(s: Json): boolean {
    let lossy = false;
    const one = (value: unknown) => {
      const converted = this.convert(value);
      lossy = lossy || converted.lossy;
      return converted;
    };
    if (isObject(s.properties))
      s.properties = Object.fromEntries(Object.entries(s.properties).map(([name, value]) => [name, one(value).schema]));
    if ('items' in s) s.items = one(s.items).schema;
    if (isObject(s.additionalProperties)) s.additionalProperties = one(s.additionalProperties).schema;
    if (Array.isArray(s.allOf)) s.allOf = s.allOf.map((member) => one(member).schema);
    if (Array.isArray(s.anyOf)) s.anyOf = this.alternatives(s.anyOf).map((member) => one(member).schema);
    if (Array.isArray(s.oneOf)) {
      const members = this.alternatives(s.oneOf).map((member) => this.convert(member));
      if (members.some((member) => member.lossy)) {
        s['x-oneOf'] = s.oneOf;
        delete s.oneOf;
        const alternatives = members.map((member) => member.schema);
        if (Array.isArray(s.anyOf)) s.allOf = [...((s.allOf as unknown[]) ?? []), { anyOf: alternatives }];
        else s.anyOf = alternatives;
        lossy = true;
      } else s.oneOf = members.map((member) => member.schema);
    }
    if ('not' in s) {
      const negated = this.convert(s.not);
      if (negated.lossy) {
        s['x-not'] = s.not;
        delete s.not;
        lossy = true;
      } else s.not = negated.schema;
    }
    return lossy;
  }
}

/**
 * `oneOf`/`anyOf` with a null member. One other member with a `type` of its own and no keyword the schema has too is
 * merged into the schema, which becomes `nullable: true` beside that type. Otherwise the null member stays a member:
 * OpenAPI 3.0.3's `nullable` adds null only to the `type` of its own schema and cannot relax an `allOf` member or a
 * `$ref` (the 3.0.3 text and the OAI's nullable clarification), so `subschemas` writes it as a null-only member.
 * Returns whether the schema itself became nullable.
 */
function takeNullMembers(s: Json): boolean {
  let nullable = false;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const members = s[keyword];
    if (!Array.isArray(members) || !members.some(isNullOnly)) continue;
    const others = members.filter((member) => !isNullOnly(member));
    const [other] = others;
    if (others.length === 0) {
      delete s[keyword];
      s.enum = [null];
      nullable = true;
    } else if (others.length === 1 && isObject(other) && mergesInto(s, other)) {
      delete s[keyword];
      Object.assign(s, other);
      nullable = true;
    }
  }
  return nullable;
}

/**
 * A condition whose `required` names each get a property of their own (`{}`, which admits anything, so the verdict is
 * the same): Redocly's `no-required-schema-properties-undefined` looks for the names in the subschema itself only.
 */
function namesDefined(condition: unknown): unknown {
  if (!isObject(condition) || !Array.isArray(condition.required)) return condition;
  const properties = isObject(condition.properties) ? condition.properties : {};
  const missing = condition.required.filter(
    (name): name is string => typeof name === 'string' && !(name in properties),
  );
  if (missing.length === 0) return condition;
  return { ...condition, properties: { ...properties, ...Object.fromEntries(missing.map((name) => [name, {}])) } };
}

/** Whether an inline member can stand in the schema itself: it names one type and shares no keyword with it. */
const mergesInto = (s: Json, member: Json) =>
  !('$ref' in member) && typeof member.type === 'string' && Object.keys(member).every((key) => !(key in s));

/**
 * The member that admits null alone, as OpenAPI 3.0.3 says it: `nullable` adds null to a type, and the `enum` leaves
 * nothing else. `type` is the one of a sibling member, so that generators read the pair as a nullable sibling.
 */
function nullMember(type: string): Json {
  const member = { type, nullable: true, enum: [null] };
  written.add(member);
  return member;
}

/**
 * `allOf: [member]` of a `$ref` with siblings whose target was written in place (a nullable primitive component): its
 * keywords go into the schema, which keeps its own. openapi-zod-client reads `nullable` only on the schema itself.
 * Returns whether the member was nullable.
 */
function mergeInlineMember(s: Json): boolean {
  const members = s.allOf;
  if (!Array.isArray(members) || members.length !== 1) return false;
  const [member] = members;
  if (!isObject(member) || '$ref' in member) return false;
  if (Object.keys(member).some((key) => key in s && key !== 'description' && key !== 'allOf')) return false;
  const { nullable, description: _description, ...keywords } = member;
  delete s.allOf;
  const own = { ...s };
  for (const key of Object.keys(s)) delete s[key];
  Object.assign(s, keywords, own);
  if (own.description === undefined && typeof member.description === 'string') s.description = member.description;
  return nullable === true;
}

/**
 * An `enum` (a `const` is one by now) without a `type` gets the type of its values, written as 3.1 would (`splitTypes`
 * then gives its 3.0 form: `nullable` for null, a branch per type for several). Generators read an untyped enum as
 * strings: openapi-generator's Java made `enum: [true]` a string enum whose code assigns a `String` to a `Boolean`.
 * The values decide the type, so the schema admits the same values. A null alone keeps no type (3.0 has none for it).
 */
function typeOfValues(s: Json): void {
  if (s.type !== undefined || !Array.isArray(s.enum)) return;
  const types = new Set(s.enum.map(jsonType));
  if (types.has('integer') && types.has('number')) types.delete('integer');
  if (types.size === 1 && types.has('null')) return;
  // Written before `enum`, where a reader looks for it.
  const entries = Object.entries(s);
  for (const [key] of entries) delete s[key];
  for (const [key, value] of entries) {
    if (key === 'enum') s.type = types.size === 1 ? [...types][0] : [...types];
    s[key] = value;
  }
}

/**
 * `type` as 3.0 has it: one type, `null` as `nullable: true`; several types become an `anyOf` of one branch per type,
 * each with the keywords and enum values of its type, and null a branch of its own. Returns whether the schema itself
 * became nullable.
 */
function splitTypes(s: Json): boolean {
  const type = s.type;
  if (type === 'null') {
    delete s.type;
    s.enum = [null];
    return true;
  }
  if (!Array.isArray(type)) return false;
  const nullable = type.includes('null');
  const types = (type as string[]).filter((t) => t !== 'null');
  if (types.length === 0) {
    delete s.type;
    s.enum = [null];
  } else if (types.length === 1) s.type = types[0];
  else {
    // A type none of whose enum values are of it admits nothing: no branch (3.0 refuses an empty enum).
    const branches = types.map((t) => branchOf(s, t)).filter((b) => !Array.isArray(b.enum) || b.enum.length > 0);
    // 3.0.3's nullable beside no type admits nothing more: null is a branch of its own.
    if (nullable && (!Array.isArray(s.enum) || s.enum.includes(null))) branches.push(nullMember(types[0]!));
    for (const t of types) for (const key of TYPE_KEYWORDS[t] ?? []) delete s[key];
    if (typeof s.format === 'string') delete s.format;
    delete s.enum;
    delete s.type;
    if (Array.isArray(s.anyOf)) s.allOf = [...((s.allOf as unknown[]) ?? []), { anyOf: branches }];
    else s.anyOf = branches;
    return false;
  }
  return nullable;
}

function branchOf(s: Json, type: string): Json {
  const branch: Json = { type };
  for (const key of TYPE_KEYWORDS[type] ?? []) if (key in s) branch[key] = s[key];
  if (typeof s.format === 'string' && (FORMAT_TYPES[s.format] ?? ['string']).includes(type)) branch.format = s.format;
  if (Array.isArray(s.enum)) {
    const values = s.enum.filter((v) => jsonType(v) === type || (type === 'number' && jsonType(v) === 'integer'));
    branch.enum = values;
  }
  return branch;
}

/** A numeric `exclusiveMinimum`/`exclusiveMaximum` (2020-12) as 3.0's boolean beside `minimum`/`maximum`. */
function exclusiveBound(s: Json, exclusive: string, inclusive: string, stricter: (a: number, b: number) => boolean) {
  const bound = s[exclusive];
  if (typeof bound !== 'number') return;
  const current = s[inclusive];
  if (typeof current !== 'number' || stricter(bound, current)) {
    s[inclusive] = bound;
    s[exclusive] = true;
  } else delete s[exclusive];
}

/** Fields of the document's objects that 3.0 lacks, kept as `x-<field>`. */
function moveField(owner: Json | undefined, field: string) {
  if (!owner || !(field in owner)) return;
  const entries = Object.entries(owner).map(([key, value]) => [key === field ? extension(field) : key, value]);
  for (const key of Object.keys(owner)) delete owner[key];
  Object.assign(owner, Object.fromEntries(entries));
}

/** OpenAPI objects whose values are not schemas and hold none: examples, defaults, extensions. */
const OPAQUE = new Set(['example', 'examples', 'default', 'enum', 'const']);

/** The 3.0.3 rendition of `doc` (a new object; `doc` is not changed). */
export function downConvert(doc: OpenApiDocument): OpenApiDocument {
  const out = structuredClone(doc) as Json & OpenApiDocument;
  const schemas = (out.components?.schemas ?? {}) as Record<string, unknown>;
  const converter = new SchemaConverter(structuredClone(schemas));
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isObject(node)) return node;
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-') || OPAQUE.has(key)) continue;
      if (key === 'schema') node[key] = converter.convert(value).schema;
      else if (key === 'type' && value === 'mutualTLS')
        throw new Error('a mutualTLS security scheme has no OpenAPI 3.0 form');
      else node[key] = walk(value);
    }
    return node;
  };
  out.openapi = '3.0.3';
  const components = out.components as Json | undefined;
  if (components?.schemas)
    components.schemas = Object.fromEntries(
      Object.keys(schemas).map((name) => [name, converter.component(name).schema]),
    );
  for (const [key, value] of Object.entries(out)) if (key !== 'components' || !components) walk(value);
  if (components) for (const [key, value] of Object.entries(components)) if (key !== 'schemas') walk(value);
  dropInlinedComponents(out, converter);
  moveField(components, 'pathItems');
  moveField(out, 'jsonSchemaDialect');
  moveField(out, 'webhooks');
  moveField(out.info as Json, 'summary');
  moveField((out.info as Json).license as Json | undefined, 'identifier');
  return out;
}

/**
 * Leaves out a nullable primitive component that every reference now writes in place: 3.0 linters (Redocly's
 * `no-unused-components`) refuse a component nothing names.
 */
function dropInlinedComponents(out: Json, converter: SchemaConverter): void {
  const schemas = (out.components as Json | undefined)?.schemas as Json | undefined;
  if (!schemas) return;
  const text = JSON.stringify(out);
  for (const name of Object.keys(schemas))
    if (converter.inlines(name) && !text.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
}

/** One schema's 3.0 form (the table tests' entry point); `$ref`s into `components` are not followed. */
export function downConvertSchema(schema: unknown, components: Record<string, JsonSchema> = {}): unknown {
  return new SchemaConverter(components).convert(schema).schema;
}
