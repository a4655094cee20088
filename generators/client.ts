import { slashBanner } from './lib/banner.ts';
import type { GeneratedFile } from './lib/files.ts';
import { operationModels, type OperationModel } from './lib/model.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { camelCase, pascalCase } from './lib/naming.ts';
import { compileContractPackage, contractModule, type ContractPackage } from './lib/package.ts';
import { typesDeclarations, typesPackageName } from './types.ts';

export const clientPackage: ContractPackage = { name: '@service-api/client', id: 'client' };
export const folder = `generated/${clientPackage.id}`;

interface ApiKeyScheme {
  type: string;
  in?: string;
  name?: string;
  scheme?: string;
}

/** How the client sends each kind of credential, read from the document's security schemes. */
export function credentialTransport(
  doc: OpenApiDocument,
): Record<'privateToken' | 'oauthToken' | 'jobToken', { header: string; prefix: string }> {
  const schemes = (doc.components?.securitySchemes ?? {}) as Record<string, ApiKeyScheme>;
  const header = (id: string): string => {
    const scheme = schemes[id];
    if (scheme?.type !== 'apiKey' || scheme.in !== 'header' || !scheme.name) {
      throw new Error(`The client needs the header security scheme "${id}" in components.securitySchemes`);
    }
    return scheme.name;
  };
  const bearer = schemes.bearerToken;
  if (bearer?.type !== 'http' || bearer.scheme?.toLowerCase() !== 'bearer') {
    throw new Error('The client needs the http bearer security scheme "bearerToken" in components.securitySchemes');
  }
  return {
    privateToken: { header: header('privateTokenHeader'), prefix: '' },
    oauthToken: { header: 'Authorization', prefix: 'Bearer ' },
    jobToken: { header: header('jobTokenHeader'), prefix: '' },
  };
}

/**
 * The generated sources of `@service-api/client`: one typed method per operation (`operations.ts`), the credential
 * headers of the document's security schemes and the contract version. Its hand-written `src/` is the runtime.
 */
export async function generateClient(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const banner = slashBanner(doc, 'client');
  const models = operationModels(doc);
  if (models.some((m) => m.group === 'raw'))
    throw new Error('A tag named "raw" would hide api.raw, the low-level client');
  const headers = JSON.stringify(credentialTransport(doc));
  return [
    { path: `${folder}/contract.ts`, contents: banner + contractModule(doc, 'const') },
    {
      path: `${folder}/credentials.ts`,
      contents: `${banner}import type { CredentialTransport } from './runtime.js';\n\n/** Header name and value prefix of each credential kind. */\nexport const credentialHeaders: CredentialTransport = ${headers};\n`,
    },
    { path: `${folder}/operations.ts`, contents: banner + operationsModule(models, inputNames(doc, models)) },
  ];
}

/** The compiled `dist/` of the client: its runtime and the generated sources, checked and compiled together. */
export async function buildClient(doc: OpenApiDocument, generated: GeneratedFile[]): Promise<GeneratedFile[]> {
  return compileContractPackage(clientPackage, generated, {
    packages: { [typesPackageName]: await typesDeclarations(doc) },
  });
}

/** The name of each operation's input type: `CreateMergeRequestInput`, prefixed with the group where two clash. */
function inputNames(doc: OpenApiDocument, models: OperationModel[]): Map<string, string> {
  const taken = new Set(Object.keys(doc.components?.schemas ?? {}));
  const short = new Map<string, number>();
  for (const m of models) short.set(m.name, (short.get(m.name) ?? 0) + 1);
  const names = new Map<string, string>();
  for (const m of models) {
    let name = `${pascalCase(m.name)}Input`;
    if (short.get(m.name)! > 1 || taken.has(name)) name = `${pascalCase(m.group)}${pascalCase(m.name)}Input`;
    if (taken.has(name)) throw new Error(`The input type ${name} of ${m.operationId} clashes with another type`);
    taken.add(name);
    names.set(m.operationId, name);
  }
  return names;
}

function descriptor(m: OperationModel): string {
  const fields: Record<string, unknown> = { id: m.operationId, method: m.method, path: m.path, response: m.response };
  if (m.body) fields.body = m.body.kind;
  const styled = m.query.filter((q) => q.style);
  if (styled.length) fields.query = Object.fromEntries(styled.map((q) => [q.name, q.style]));
  if (m.responseHeaders.length) fields.headers = Object.fromEntries(m.responseHeaders.map((h) => [h.name, h.type]));
  if (m.errorStatuses.length) fields.errors = m.errorStatuses;
  if (m.variants)
    fields.views = Object.fromEntries(
      m.variants.values.map(({ value }) => [viewName(m, value), { [m.variants!.parameter]: value }]),
    );
  return JSON.stringify(fields);
}

/** The documented success headers as an object type (`{ "x-page"?: string }`). */
function headersType(m: OperationModel): string {
  return m.responseHeaders.length
    ? `{ ${m.responseHeaders.map((h) => `${JSON.stringify(h.name)}?: ${h.type}`).join('; ')} }`
    : 'Record<string, never>';
}

/** The success body with schema names qualified by the namespace import `T`. */
function qualified(type: string): string {
  return type.replace(/\b(?<![."'])([A-Z]\w*)\b(?!["'])/g, (name) => (['Omit'].includes(name) ? name : `T.${name}`));
}

function methodType(m: OperationModel, input: string): string {
  const id = JSON.stringify(m.operationId);
  const optional = m.inputOptional ? 'true' : 'false';
  const headers = headersType(m);
  if (m.response === 'headers') return `HeadMethod<${input}, ${optional}, ${headers}>`;
  if (m.response === 'binary') return `BinaryMethod<${input}, ${optional}, ${headers}>`;
  if (m.variants) return viewsType(m, input, optional, headers);
  const success = m.successType ? qualified(m.successType) : `Success<${id}>`;
  if (m.pagination) {
    const item =
      m.successType?.endsWith('[]') && !m.successType.includes('|')
        ? qualified(m.successType.slice(0, -2))
        : `Item<${id}>`;
    return `PaginatedMethod<${input}, ${item}, ${optional}, ${headers}>`;
  }
  return `Method<${input}, ${success}, ${optional}, ${headers}>`;
}

/**
 * An operation with `x-variants`: the plain method, typed by the record a call without the parameter gets, and one
 * method per other view (`.simple`) that sends the parameter. None is generic (see `WithParameter` in methods.ts).
 */
function viewsType(m: OperationModel, input: string, optional: string, headers: string): string {
  const v = m.variants!;
  const method = (inputType: string, record: string) =>
    v.list && m.pagination
      ? `PaginatedMethod<${inputType}, ${qualified(record)}, ${optional}, ${headers}>`
      : `Method<${inputType}, ${v.list ? `(${qualified(record)})[]` : qualified(record)}, ${optional}, ${headers}>`;
  const views = v.values.map(({ value, type }) => {
    const sent = `${v.parameter}=${value}`;
    const viewInput = `WithParameter<${input}, ${JSON.stringify(v.parameter)}, ${JSON.stringify(value)}>`;
    const records = /^\w+$/.test(type) ? `\`${type}\` records` : 'the records it selects';
    return `      /** Sends \`${sent}\`: ${records}. */\n      ${viewName(m, value)}: ${method(viewInput, type)};`;
  });
  return `${method(input, v.otherwise)} & {\n${views.join('\n')}\n    }`;
}

/** What the plain method of an operation with \`x-variants\` lets a call send: \`false\` where only \`true\` chooses a view. */
function plainValue(m: OperationModel): string {
  return m.variants!.values.every(({ value }) => value === true) ? 'false' : 'never';
}

/** Members of a method, and of every function, that a view's method must not hide. */
const takenNames = new Set([
  'withResponse',
  'pages',
  'iterate',
  'all',
  ...Object.getOwnPropertyNames(Function.prototype),
]);

/** The name of a view's method: the value the parameter takes (`view=simple`: `simple`), or for `true` the parameter's. */
function viewName(m: OperationModel, value: string | number | boolean): string {
  const v = m.variants!;
  if (value !== true && typeof value !== 'string')
    throw new Error(`x-variants of ${m.operationId}: a view is chosen by true or by a text, not ${value}`);
  const name = camelCase(value === true ? v.parameter : value);
  if (takenNames.has(name) || name === 'prototype')
    throw new Error(`x-variants of ${m.operationId}: the view ${name} would hide a member of the method`);
  return name;
}

/**
 * The input type of an operation: its \`Input<K>\` with \`extra\` (parameters the contract does not list). With
 * \`x-variants\`, the parameter that chooses the record is the views' to send, in \`query\` and \`extra.query\` alike.
 */
function inputType(m: OperationModel, name: string): string {
  const input = `Input<${JSON.stringify(m.operationId)}>`;
  const parameter = m.variants ? JSON.stringify(m.variants.parameter) : undefined;
  const extraQuery = parameter ? ` & { query?: { readonly ${parameter}?: never } }` : '';
  const extra =
    m.body && m.body.kind !== 'binary'
      ? `ExtraParameters${extraQuery} & { body?: { readonly [name: string]: unknown } }`
      : `ExtraParameters${extraQuery}`;
  const base = parameter ? `WithParameter<${input}, ${parameter}, ${plainValue(m)}>` : input;
  const views = m.variants
    ? ` Each other view is a method of its own: ${m.variants.values.map(({ value }) => `\`.${viewName(m, value)}(…)\` sends \`${m.variants!.parameter}=${value}\``).join(', ')}.`
    : '';
  return `/** The input of \`${m.operationId}\`: \`${m.method} ${m.path}\`.${views} */\nexport interface ${name} extends ${base} {\n  /** Parameters the Service accepts that the contract does not list, sent as given. */\n  extra?: ${extra};\n}`;
}

function operationsModule(models: OperationModel[], inputs: Map<string, string>): string {
  const groups = new Map<string, OperationModel[]>();
  for (const m of models) groups.set(m.group, [...(groups.get(m.group) ?? []), m]);
  const api = [...groups]
    .map(([group, ops]) => {
      const methods = ops.map(
        (m) =>
          `    /** ${m.summary.replace(/\*\//g, '*\\/')} (\`${m.method} ${m.path}\`, \`${m.operationId}\`).${m.deprecated ? ' @deprecated' : ''} */\n    ${m.name}: ${methodType(m, inputs.get(m.operationId)!)};`,
      );
      return `  ${group}: {\n${methods.join('\n')}\n  };`;
    })
    .join('\n');
  const table = models
    .map(
      (m) =>
        `  [${JSON.stringify(m.group)}, ${JSON.stringify(m.name)}, ${descriptor(m)}, ${m.pagination ? 'true' : 'false'}],`,
    )
    .join('\n');
  const inputDecls = models.map((m) => inputType(m, inputs.get(m.operationId)!)).join('\n\n');
  return `import type { BinaryMethod, HeadMethod, Method, PaginatedMethod, WithParameter } from './methods.js';
import type { OperationDescriptor } from './runtime.js';
import type * as T from './types.js';
import type { ExtraParameters, Input, Item, Success } from './types.js';

${inputDecls}

/** One method per operation, grouped by tag. */
export interface ServiceApiMethods {
${api}
}

/** [group, method, descriptor, paginated] of every operation. */
export const operationTable: [string, string, OperationDescriptor, boolean][] = [
${table}
];
`;
}
