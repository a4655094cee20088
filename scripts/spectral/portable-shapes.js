/**
 * The portable shapes of `openapi/conventions.md`: shapes that common generators and validators read as we mean them.
 * One function for the whole document (`given: $`); `functionOptions.shape` names the check, one rule each.
 */

/** Keywords whose value is one subschema. */
const ONE = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'contentSchema',
];
/** Keywords whose value maps names to subschemas. */
const MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
/** Keywords whose value lists subschemas. */
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Where a `required` list alone is a rule over the fields its schema declares ("one of these fields"), not a shape. */
const RULE_PLACES = new Set(['anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas']);

/** Keywords that say what an object holds: an object with none of them is a pointer to an empty struct in ogen. */
const SHAPE_KEYWORDS = ['properties', 'additionalProperties', 'patternProperties', '$ref', 'allOf', 'anyOf', 'oneOf'];

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An `allOf` member that holds only `if`/`then`/`else` (with `type: object` and a description). */
const rulesOnly = (member) =>
  isObject(member) &&
  'if' in member &&
  Object.keys(member).every(
    (key) => ['if', 'then', 'else', 'description'].includes(key) || (key === 'type' && member.type === 'object'),
  );

/**
 * Every schema of the document (component schemas, `schema` of parameters, headers and media) and
 * their subschemas, each with its path and the keyword it sits under; booleans included, each object once.
 */
function schemas(doc) {
  const out = [];
  const seen = new Set();
  const schema = (node, path, place) => {
    if (typeof node === 'boolean') {
      out.push({ node, path, place });
      return;
    }
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    out.push({ node, path, place });
    for (const key of ONE) if (key in node) schema(node[key], [...path, key], key);
    for (const key of MAPS)
      if (isObject(node[key]))
        for (const [name, child] of Object.entries(node[key])) schema(child, [...path, key, name], key);
    for (const key of LISTS)
      if (Array.isArray(node[key])) for (const [i, child] of node[key].entries()) schema(child, [...path, key, i], key);
  };
  const walk = (node, path) => {
    if (!isObject(node) && !Array.isArray(node)) return;
    for (const [key, child] of Object.entries(node)) {
      // `x-query-schema` is read by our validators only: third-party tools ignore extensions.
      if (key === 'example' || key === 'examples' || key === 'x-query-schema') continue;
      if (key === 'schema') schema(child, [...path, key], 'root');
      else walk(child, [...path, key]);
    }
  };
  for (const [name, child] of Object.entries(doc?.components?.schemas ?? {}))
    schema(child, ['components', 'schemas', name], 'root');
  walk(doc, []);
  return out;
}

/** The component a local `$ref` names, or the node itself. */
function resolve(doc, node) {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 10; hops++) {
    const match = /^#\/components\/(schemas|parameters)\/([^/]+)$/.exec(current.$ref);
    current = match ? doc?.components?.[match[1]]?.[match[2]] : undefined;
  }
  return current;
}

const INT32 = [-(2 ** 31), 2 ** 31 - 1];
const inInt32 = (value) => typeof value === 'number' && value >= INT32[0] && value <= INT32[1];

/** Whether a schema's own bounds keep it within 32 bits (both bounds, an enum or a const). */
function boundedInt32(node) {
  if (node.const !== undefined) return inInt32(node.const);
  if (Array.isArray(node.enum)) return node.enum.every((value) => value === null || inInt32(value));
  return inInt32(node.minimum ?? node.exclusiveMinimum) && inInt32(node.maximum ?? node.exclusiveMaximum);
}

const typesOf = (node) => [node.type].flat().filter((type) => typeof type === 'string');
/** A value's JSON Schema type (`integer` for a whole number). */
const jsonType = (value) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
/** Whether `types` admit the value (a `number` admits an integer). */
const admitsValue = (types, value) =>
  types.includes(jsonType(value)) || (jsonType(value) === 'integer' && types.includes('number'));

/** The non-null types a schema admits, read through a `$ref` and `anyOf`/`oneOf` of typed members; undefined: any. */
function admitted(doc, raw) {
  const node = resolve(doc, raw);
  if (!isObject(node)) return undefined;
  const own = typesOf(node).filter((type) => type !== 'null');
  if (own.length > 0) return own;
  const members = node.anyOf ?? node.oneOf;
  if (!Array.isArray(members)) return undefined;
  const each = members.map((member) => admitted(doc, member));
  return each.every(Array.isArray) ? each.flat() : undefined;
}

const isFile = (node) =>
  node.format === 'binary' ||
  (node.type === 'string' &&
    typeof node.contentMediaType === 'string' &&
    !/^(text\/|application\/json)/i.test(node.contentMediaType));

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Each check: the problems of the whole document, `{ message, path }`. */
const CHECKS = {
  'no-boolean-schema': (doc) =>
    schemas(doc)
      .filter(({ node }) => typeof node === 'boolean')
      .map(({ node, path }) => ({
        message: node
          ? 'Boolean schema `true`: write `{}` (orval and openapi-zod-client crash on a boolean schema)'
          : 'Boolean schema `false`: leave a field that is never sent out and say so in the description (orval and openapi-zod-client crash on a boolean schema)',
        path,
      })),

  'required-beside-properties': (doc) =>
    schemas(doc).flatMap(({ node, path, place }) => {
      if (!isObject(node) || !Array.isArray(node.required)) return [];
      const own = isObject(node.properties) ? node.properties : {};
      const rule = !node.properties && !node.allOf && !node.$ref && RULE_PLACES.has(place);
      if (rule) return [];
      const missing = node.required.filter((name) => !Object.hasOwn(own, name));
      return missing.length === 0
        ? []
        : [
            {
              message: `\`required\` names ${missing.map((name) => `"${name}"`).join(', ')}, not declared in the \`properties\` beside it (hey-api drops a required list split from its properties)`,
              path: [...path, 'required'],
            },
          ];
    }),

  'integer-format': (doc) =>
    schemas(doc).flatMap(({ node, path }) => {
      if (!isObject(node) || !typesOf(node).includes('integer')) return [];
      if (node.format === 'int64' || (node.format === 'int32' && boundedInt32(node))) return [];
      const message =
        node.format === 'int32'
          ? '`format: int32` on an integer whose bounds do not keep it within 32 bits: use `int64`'
          : 'Integer without `format: int64` (or `int32` where its bounds keep it within 32 bits): Java, Kotlin and C# generators read a bare integer as 32 bits';
      return [{ message, path: node.format === undefined ? path : [...path, 'format'] }];
    }),

  'file-size': (doc) =>
    schemas(doc).flatMap(({ node, path }) => {
      if (!isObject(node) || !isFile(node)) return [];
      const problems = ['maxLength', 'minLength']
        .filter((key) => key in node)
        .map((key) => ({
          message: `\`${key}\` on a file counts characters, not bytes (generated zod does not compile): state a size limit in words and \`x-max-file-size\``,
          path: [...path, key],
        }));
      const max = node['x-max-file-size'];
      if (max !== undefined && !(Number.isInteger(max) && max > 0))
        problems.push({ message: '`x-max-file-size` is a number of bytes', path: [...path, 'x-max-file-size'] });
      return problems;
    }),

  'additional-properties-admit': (doc) =>
    schemas(doc).flatMap(({ node, path }) => {
      if (!isObject(node) || !isObject(node.properties) || !isObject(node.additionalProperties)) return [];
      const extra = admitted(doc, node.additionalProperties);
      if (!extra) return [];
      const admits = (type) => extra.includes(type) || (type === 'integer' && extra.includes('number'));
      return Object.entries(node.properties).flatMap(([name, property]) => {
        const types = admitted(doc, property);
        if (types?.every(admits)) return [];
        return [
          {
            message: `\`additionalProperties\` admits ${extra.join(', ')}, not the type of "${name}" (an index signature its property breaks: TS2411 in generated code)`,
            path: [...path, 'additionalProperties'],
          },
        ];
      });
    }),

  'path-parameter-once': (doc) =>
    Object.entries(doc?.paths ?? {}).flatMap(([route, item]) => {
      if (!isObject(item)) return [];
      const shared = (item.parameters ?? []).map((p) => resolve(doc, p)).filter((p) => p?.in === 'path');
      return METHODS.filter((method) => isObject(item[method])).flatMap((method) =>
        (item[method].parameters ?? []).flatMap((raw, i) => {
          const parameter = resolve(doc, raw);
          if (parameter?.in !== 'path' || !shared.some((p) => p.name === parameter.name)) return [];
          return [
            {
              message: `Path parameter "${parameter.name}" is declared on the path item and again on the operation: declare it once per operation (swagger-typescript-api emits it twice)`,
              path: ['paths', route, method, 'parameters', i],
            },
          ];
        }),
      );
    }),

  'rules-member-type': (doc) =>
    schemas(doc).flatMap(({ node, path }) =>
      (Array.isArray(node?.allOf) ? node.allOf : []).flatMap((member, i) =>
        isObject(member) && ('if' in member || 'then' in member || 'else' in member) && member.type === undefined
          ? [
              {
                message: 'An `allOf` member of `if`/`then` rules carries `type: object` (oazapfts reads it as `any`)',
                path: [...path, 'allOf', i],
              },
            ]
          : [],
      ),
    ),

  'rule-at-top': (doc) =>
    schemas(doc).flatMap(({ node, path }) => {
      if (!Array.isArray(node?.allOf) || 'if' in node || 'then' in node || 'else' in node) return [];
      const members = node.allOf.flatMap((member, i) => (rulesOnly(member) ? [i] : []));
      return members.length === 1
        ? [
            {
              message:
                "A schema's only `if`/`then` rule stands at its top level, not in an `allOf` member (hey-api's zod intersects that member as an open map: `Unmergable intersection`)",
              path: [...path, 'allOf', members[0]],
            },
          ]
        : [];
    }),

  'single-type': (doc) =>
    schemas(doc).flatMap(({ node, path }) => {
      const types = isObject(node) ? typesOf(node).filter((type) => type !== 'null') : [];
      return types.length <= 1
        ? []
        : [
            {
              message: `\`type\` lists ${types.join(' and ')}: write \`anyOf\` of one type each (Kubb overflows on a reference to it, orval misreads it)`,
              path: [...path, 'type'],
            },
          ];
    }),

  'server-variables': (doc) =>
    (doc?.servers ?? []).flatMap((server, s) =>
      Object.entries(server?.variables ?? {}).flatMap(([name, variable]) =>
        Object.keys(variable ?? {})
          .filter((key) => key !== 'default' && key !== 'enum' && !key.startsWith('x-'))
          .map((key) => ({
            message: `Server variable field \`${key}\`: swagger-parser's OpenAPI 3.1 schema refuses it (it misspells \`description\`); say it in the server's description`,
            path: ['servers', s, 'variables', name, key],
          })),
      ),
    ),
};

/** Every parameter of each operation (path item's first, the operation's overriding by name and location). */
function operationParameters(doc) {
  return Object.entries(doc?.paths ?? {}).flatMap(([route, item]) => {
    if (!isObject(item)) return [];
    return METHODS.filter((method) => isObject(item[method])).map((method) => {
      const byKey = new Map();
      const add = (list, where) =>
        (Array.isArray(list) ? list : []).forEach((raw, i) => {
          const parameter = resolve(doc, raw);
          if (isObject(parameter)) byKey.set(`${parameter.in}:${parameter.name}`, { parameter, path: [...where, i] });
        });
      add(item.parameters, ['paths', route, 'parameters']);
      add(item[method].parameters, ['paths', route, method, 'parameters']);
      return { route, method, parameters: [...byKey.values()] };
    });
  });
}

/** PascalCase of a name as generators build type names (`merge_status` → `MergeStatus`). */
const pascal = (name) =>
  String(name)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join('');

const isNull = (member) => isObject(member) && member.type === 'null';
/** A union of one `$ref` and `null`: a nullable reference, which generators type by the component's own name. */
const nullableRef = (members) =>
  members.filter((member) => !isNull(member)).length === 1 && members.some((member) => isObject(member) && member.$ref);

/** A schema a generator turns into a named type of its own: an enum, an object with properties, a union. */
const namedInline = (node) => {
  if (!isObject(node) || node.$ref !== undefined || node.title !== undefined) return false;
  const union = [node.oneOf, node.anyOf].find(Array.isArray);
  if (union) return !nullableRef(union);
  return Array.isArray(node.enum) || isObject(node.properties) || (node.type === 'array' && namedInline(node.items));
};

/** An inline object (`type: object`, properties or a map of values), or an array or union holding one. */
const inlineObject = (node) =>
  isObject(node) &&
  node.$ref === undefined &&
  (node.type === 'object' ||
    isObject(node.properties) ||
    isObject(node.additionalProperties) ||
    inlineObject(node.items) ||
    [node.oneOf, node.anyOf].some((members) => Array.isArray(members) && members.some(inlineObject)));

/** The inline object properties of the inline members of a component's own `oneOf`/`anyOf`. */
const objectsInUnionMembers = (schema) =>
  ['oneOf', 'anyOf'].flatMap((key) =>
    (Array.isArray(schema?.[key]) ? schema[key] : []).flatMap((member, i) =>
      isObject(member) && member.$ref === undefined && isObject(member.properties)
        ? Object.entries(member.properties)
            .filter(([, property]) => inlineObject(property))
            .map(([name]) => ({ name, path: [key, i, 'properties', name] }))
        : [],
    ),
  );

const isArraySchema = (doc, node) => resolve(doc, node)?.type === 'array';
/** A member that only names fields its schema declares ("`cn` or `filter`"): `required`, with `type: object` or a `not`. */
const requiredOnly = (member) =>
  isObject(member) &&
  Array.isArray(member.required) &&
  Object.keys(member).every(
    (key) => ['required', 'not', 'description'].includes(key) || (key === 'type' && member.type === 'object'),
  );

Object.assign(CHECKS, {
  'path-parameter-string': (doc) =>
    operationParameters(doc).flatMap(({ parameters }) =>
      parameters.flatMap(({ parameter, path }) => {
        if (parameter.in !== 'path') return [];
        const schema = resolve(doc, parameter.schema);
        const union = !isObject(schema) || schema.anyOf || schema.oneOf || typesOf(schema).length !== 1;
        return union
          ? [
              {
                message: `Path parameter "${parameter.name}" is not of one type: an ID or a path is \`type: string\` (openapi-generator's Java and Go clients put a wrapper object's text in the path)`,
                path: [...path, 'schema'],
              },
            ]
          : [];
      }),
    ),

  'no-never-property': (doc) =>
    schemas(doc).flatMap(({ node, path }) =>
      Object.entries(isObject(node?.properties) ? node.properties : {}).flatMap(([name, property]) =>
        property === false || (isObject(property) && isObject(property.not) && Object.keys(property.not).length === 0)
          ? [
              {
                message: `Property "${name}" is never sent (\`not: {}\`): leave it out and say so in the description (openapi-generator's Go and Python output does not compile on it)`,
                path: [...path, 'properties', name],
              },
            ]
          : [],
      ),
    ),

  'part-content-type': (doc) =>
    Object.entries(doc?.paths ?? {}).flatMap(([route, item]) =>
      METHODS.filter((method) => isObject(item?.[method]?.requestBody?.content)).flatMap((method) =>
        Object.entries(item[method].requestBody.content).flatMap(([type, media]) =>
          Object.entries(isObject(media?.encoding) ? media.encoding : {})
            .filter(([, encoding]) => isObject(encoding) && 'contentType' in encoding)
            .map(([part]) => ({
              message: `The \`${part}\` part's \`encoding\` names a \`contentType\`: say what the part holds with the property's \`contentMediaType\` and description (ogen skips the operation, ogen-go/ogen#1159)`,
              path: ['paths', route, method, 'requestBody', 'content', type, 'encoding', part, 'contentType'],
            })),
        ),
      ),
    ),

  'enum-type': (doc) =>
    schemas(doc).flatMap(({ node, path }) => {
      if (!isObject(node) || !('const' in node || Array.isArray(node.enum))) return [];
      const values = 'const' in node ? [node.const] : node.enum;
      // OpenAPI 3.0 has no type for null alone: `enum: [null]` says it.
      if (values.every((value) => value === null)) return [];
      const types = node.nullable === true ? [...typesOf(node), 'null'] : typesOf(node);
      const stray = values.filter((value) => !admitsValue(types, value));
      if (types.length > 0 && stray.length === 0) return [];
      const what =
        types.length === 0
          ? 'has no `type`'
          : `lists ${stray.map((value) => JSON.stringify(value)).join(', ')}, not of its type ${types.join('/')}`;
      return [
        {
          message: `An \`enum\`/\`const\` ${what}: write the type of its values beside it (openapi-generator reads an untyped enum as strings, and Java's model assigns a String to a Boolean for \`enum: [true]\`; ogen calls a union with an untyped member a "complex anyOf" and skips the operation)`,
          path,
        },
      ];
    }),

  'nullable-open-object': (doc) =>
    schemas(doc).flatMap(({ node, path }) => {
      if (!isObject(node)) return [];
      const types = typesOf(node);
      const shapeless = SHAPE_KEYWORDS.every((key) => !(key in node));
      return types.includes('object') && (types.includes('null') || node.nullable === true) && shapeless
        ? [
            {
              message:
                'A nullable object with no documented fields: write `additionalProperties: {}` beside its type (ogen makes it a pointer to an empty struct whose decoder refuses null)',
              path,
            },
          ]
        : [];
    }),

  'rule-beside-properties': (doc) =>
    schemas(doc).flatMap(({ node, path }) =>
      (Array.isArray(node?.allOf) ? node.allOf : []).flatMap((member, i) =>
        isObject(member) && ('if' in member || 'then' in member || 'else' in member) && !rulesOnly(member)
          ? [
              {
                message:
                  'An `allOf` member carries an `if`/`then` rule beside other keywords: put the properties on the schema and the rule on the schema or in a member of its own (openapi-generator drops the whole member)',
                path: [...path, 'allOf', i],
              },
            ]
          : [],
      ),
    ),

  'inline-name': (doc) => {
    const components = new Set(Object.keys(doc?.components?.schemas ?? {}));
    return Object.entries(doc?.components?.schemas ?? {}).flatMap(([owner, schema]) => [
      ...Object.entries(isObject(schema?.properties) ? schema.properties : {}).flatMap(([name, property]) => {
        if (!namedInline(property)) return [];
        const names = [pascal(name), `${owner}${pascal(name)}`].filter((candidate) => components.has(candidate));
        return names.length === 0
          ? []
          : [
              {
                message: `Inline schema of "${name}" is named ${names.join(' or ')} by generators (datamodel-code-generator, oapi-codegen), a component's name: make it a component or give it a \`title\``,
                path: ['components', 'schemas', owner, 'properties', name],
              },
            ];
      }),
      ...objectsInUnionMembers(schema).map(({ path, name }) => ({
        message: `Inline object "${name}" in an inline member of ${owner}'s union is generated twice by openapi-python-client, which then drops the member ("Attempted to generate duplicate models"; a title does not help): make it a component`,
        path: ['components', 'schemas', owner, ...path],
      })),
    ]);
  },

  'array-of-any': (doc) =>
    schemas(doc).flatMap(({ node, path }) =>
      ['anyOf', 'oneOf'].flatMap((key) =>
        Array.isArray(node?.[key]) && node[key].filter((member) => isArraySchema(doc, member)).length > 1
          ? [
              {
                message: `\`${key}\` of several arrays: write one array whose \`items\` are an \`anyOf\` of the forms (openapi-generator's Java tries the first array only)`,
                path: [...path, key],
              },
            ]
          : [],
      ),
    ),

  'one-error-schema': (doc) =>
    [
      ...Object.entries(doc?.components?.responses ?? {}).map(([name, response]) => ({
        response,
        path: ['components', 'responses', name],
        status: '4',
      })),
      ...Object.entries(doc?.paths ?? {}).flatMap(([route, item]) =>
        METHODS.filter((method) => isObject(item?.[method])).flatMap((method) =>
          Object.entries(item[method].responses ?? {}).map(([status, response]) => ({
            response,
            path: ['paths', route, method, 'responses', status],
            status,
          })),
        ),
      ),
    ].flatMap(({ response, path, status }) => {
      if (!/^[45]/.test(status) || !isObject(response?.content)) return [];
      return Object.entries(response.content).flatMap(([type, media]) => {
        const schema = media?.schema;
        const union = isObject(schema) && [schema.anyOf, schema.oneOf].find(Array.isArray);
        return union && union.filter((member) => isObject(resolve(doc, member))).length > 1
          ? [
              {
                message:
                  'An error response is a union of object schemas: write one schema with the other fields optional (ogen skips every operation that answers an `anyOf` of open objects)',
                path: [...path, 'content', type, 'schema'],
              },
            ]
          : [];
      });
    }),

  'parameter-go-name': (doc) =>
    operationParameters(doc).flatMap(({ parameters }) =>
      parameters.flatMap(({ parameter, path }) => {
        const goName = (p) => (typeof p['x-go-name'] === 'string' ? p['x-go-name'] : pascal(p.name));
        const twins = parameters.filter(
          (other) => other.parameter !== parameter && goName(other.parameter) === goName(parameter),
        );
        return twins.length === 0
          ? []
          : [
              {
                message: `Parameter "${parameter.name}" (${parameter.in}) shares its Go name with ${twins.map((t) => `"${t.parameter.name}" (${t.parameter.in})`).join(', ')}: give each an \`x-go-name\` of its own (oapi-codegen declares the field twice)`,
                path,
              },
            ];
      }),
    ),

  'parameter-union-component': (doc) =>
    operationParameters(doc).flatMap(({ parameters }) =>
      parameters.flatMap(({ parameter, path }) => {
        const schema = parameter.schema;
        return isObject(schema) && (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf))
          ? [
              {
                message: `Parameter "${parameter.name}" has an inline \`oneOf\`/\`anyOf\`: make its schema a component (oapi-codegen names types it never declares)`,
                path: [...path, 'schema'],
              },
            ]
          : [];
      }),
    ),

  'rule-alternatives': (doc) =>
    schemas(doc).flatMap(({ node, path }) =>
      isObject(node?.properties)
        ? ['anyOf', 'oneOf'].flatMap((key) =>
            Array.isArray(node[key]) && node[key].length > 0 && node[key].every(requiredOnly)
              ? [
                  {
                    message: `\`${key}\` of members holding only \`required\` beside \`properties\`: state the rule as \`if\`/\`then\`/\`else\` on the schema (openapi-generator's Kotlin and Java make the record a class without fields)`,
                    path: [...path, key],
                  },
                ]
              : [],
          )
        : [],
    ),
});

export const shapes = Object.keys(CHECKS);

export default function portableShapes(doc, options) {
  const check = CHECKS[options?.shape];
  if (!check) throw new Error(`portable-shapes: unknown shape ${options?.shape}; one of ${shapes.join(', ')}`);
  return check(doc);
}
