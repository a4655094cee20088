import { slashBanner } from './lib/banner.ts';
import type { GeneratedFile } from './lib/files.ts';
import { listOperations } from './lib/document.ts';
import { fileLimits, inputShape } from './lib/input-shape.ts';
import { operationModels, type OperationModel } from './lib/model.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { compileContractPackage, contractModule, type ContractPackage } from './lib/package.ts';
import { typesDeclarations, typesPackageName } from './types.ts';
import { validatorsDeclarations, validatorsPackage } from './validators.ts';

export const serverPackage: ContractPackage = { name: '@service-api/server', id: 'server' };
export const folder = `generated/${serverPackage.id}`;

interface Scheme {
  type: string;
  in?: string;
  name?: string;
  scheme?: string;
}

/** Where each security scheme of the document carries its credential (Part 1 §5). */
export function schemeLocations(doc: OpenApiDocument): Record<string, { in: string; name: string }> {
  const out: Record<string, { in: string; name: string }> = {};
  for (const [id, scheme] of Object.entries((doc.components?.securitySchemes ?? {}) as Record<string, Scheme>)) {
    if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer')
      out[id] = { in: 'bearer', name: 'Authorization' };
    else if (scheme.type === 'apiKey' && scheme.name && ['header', 'query', 'cookie'].includes(scheme.in ?? ''))
      out[id] = { in: scheme.in!, name: scheme.name };
    else
      throw new Error(
        `The server cannot read security scheme "${id}" (${scheme.type}${scheme.scheme ? ` ${scheme.scheme}` : ''})`,
      );
  }
  return out;
}

/**
 * The generated sources of `@service-api/server`: every operation's route (method, path, query styles, security,
 * body kind, input shape, file limits), where each security scheme carries its credential, and the contract version.
 * Its hand-written `src/` is the runtime and the plugin.
 */
export async function generateServer(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const banner = slashBanner(doc, 'server');
  return [
    { path: `${folder}/contract.ts`, contents: banner + contractModule(doc, 'const') },
    { path: `${folder}/routes.ts`, contents: banner + routesModule(doc, operationModels(doc)) },
  ];
}

/** The compiled `dist/` of the server: its runtime and the generated sources, checked and compiled together. */
export async function buildServer(doc: OpenApiDocument, generated: GeneratedFile[]): Promise<GeneratedFile[]> {
  return compileContractPackage(serverPackage, generated, {
    types: ['node'],
    packages: {
      [typesPackageName]: await typesDeclarations(doc),
      [validatorsPackage.name]: await validatorsDeclarations(doc),
    },
  });
}

function route(doc: OpenApiDocument, m: OperationModel, credentialQuery: string[]): string {
  const styled = m.query.filter((q) => q.style);
  const entry = listOperations(doc).find((e) => e.operationId === m.operationId)!;
  const files = fileLimits(doc, entry);
  return JSON.stringify({
    id: m.operationId,
    method: m.method,
    path: m.path,
    ...(styled.length ? { query: Object.fromEntries(styled.map((q) => [q.name, q.style])) } : {}),
    security: m.security,
    authenticated: m.authenticated,
    json: m.response === 'json',
    ...(m.body && m.body.kind !== 'binary'
      ? { body: { kind: m.body.kind, type: m.body.mediaType, required: m.body.required } }
      : {}),
    ...(m.headers.length ? { headers: m.headers.map((h) => h.name.toLowerCase()) } : {}),
    input: inputShape(doc, entry, credentialQuery),
    ...(files ? { files } : {}),
  });
}

function routesModule(doc: OpenApiDocument, models: OperationModel[]): string {
  const credentialQuery = Object.values(schemeLocations(doc))
    .filter((s) => s.in === 'query')
    .map((s) => s.name);
  return `import type { RouteDescriptor, SchemeLocation } from './runtime.js';

/** Every operation of the document. */
export const routes: RouteDescriptor[] = [
${models.map((m) => `  ${route(doc, m, credentialQuery)},`).join('\n')}
];

/** Where each security scheme carries its credential. */
export const securitySchemes: Record<string, SchemeLocation> = ${JSON.stringify(schemeLocations(doc), null, 2)};
`;
}
