import { slashBanner } from './lib/banner.ts';
import type { GeneratedFile } from './lib/files.ts';
import { operationModels, type OperationModel } from './lib/model.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { pascalCase } from './lib/naming.ts';
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
  if (m.variants)
    return m.pagination
      ? `PaginatedVariantMethod<${id}, ${input}, ${optional}, ${headers}>`
      : `VariantMethod<${id}, ${input}, ${optional}, ${headers}>`;
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

/** The input type of an operation: its \`Input<K>\` with \`extra\` (parameters the contract does not list). */
function inputType(m: OperationModel, name: string): string {
  const extra =
    m.body && m.body.kind !== 'binary'
      ? 'ExtraParameters & { body?: { readonly [name: string]: unknown } }'
      : 'ExtraParameters';
  return `/** The input of \`${m.operationId}\`: \`${m.method} ${m.path}\`. */\nexport interface ${name} extends Input<${JSON.stringify(m.operationId)}> {\n  /** Parameters the Service accepts that the contract does not list, sent as given. */\n  extra?: ${extra};\n}`;
}

/** The record a variant operation returns for the input \`I\` (\`x-variants\`). */
function variantType(m: OperationModel): string {
  const v = m.variants!;
  const wrap = (type: string) => (v.list ? `(${qualified(type)})[]` : qualified(type));
  let type = wrap(v.otherwise);
  for (const value of [...v.values].reverse())
    type = `When<I, ${JSON.stringify(v.parameter)}, ${JSON.stringify(value.value)}, ${wrap(value.type)}, ${type}>`;
  return `  ${JSON.stringify(m.operationId)}: ${type};`;
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
  const variants = models.filter((m) => m.variants);
  const inputDecls = models.map((m) => inputType(m, inputs.get(m.operationId)!)).join('\n\n');
  return `import type { BinaryMethod, HeadMethod, Method, PaginatedMethod, PaginatedVariantMethod, VariantMethod } from './methods.js';
import type { OperationDescriptor } from './runtime.js';
import type * as T from './types.js';
import type { ExtraParameters, Input, Item, Success, When } from './types.js';

declare module './methods.js' {
  /** For each operation with \`x-variants\`: the success body for the input \`I\` the call passes. */
  interface VariantResults<I> {
${variants.map((m) => `  ${variantType(m)}`).join('\n')}
  }
}

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
