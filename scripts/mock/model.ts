/**
 * What the mock needs to know of an operation, computed the first time it is called: its parameters by place, its
 * request body, its security requirements, and its documented statuses and example names.
 */
import { isFileSchema } from '../../generators/lib/json-schema.ts';
import type { JsonSchema, OpenApiDocument, Operation, Parameter, PathItem } from '../../generators/lib/openapi.ts';
import type { Requirement, SecurityScheme } from './auth.ts';
import { bodyKind, type BodyKind } from './body.ts';

export interface RequestBodyModel {
  kind: BodyKind;
  mediaType: string;
  schema: JsonSchema;
  required: boolean;
  /** File fields and their documented size limit in bytes (from `maxLength`), if any. */
  files: Map<string, number | undefined>;
}

export interface OperationModel {
  id: string;
  method: string;
  path: string;
  query: Map<string, Parameter>;
  /** deepObject query parameters (`custom_attributes[key]=value`). */
  deepObjects: Set<string>;
  pathNames: Set<string>;
  requirements: Requirement[];
  /** Names of query parameters that carry credentials (`private_token`, …): never unknown. */
  credentialQuery: Set<string>;
  body?: RequestBodyModel;
  /** Documented status → example names of its first media type. */
  examples: Map<string, string[]>;
  deprecated: boolean;
}

/**
 * The model of one operation from its dereferenced path item (path-item parameters apply, operation parameters
 * override them) and the document's security schemes.
 */
export function operationModel(doc: OpenApiDocument, path: string, method: string, item: PathItem): OperationModel {
  const schemes = (doc.components?.securitySchemes ?? {}) as Record<string, SecurityScheme>;
  const credentialQuery = new Set(Object.values(schemes).filter((s) => s.in === 'query' && s.name).map((s) => s.name!));
  const operation = item[method] as Operation;
  const byKey = new Map<string, Parameter>();
  for (const parameter of [...(item.parameters ?? []), ...(operation.parameters ?? [])] as Parameter[]) byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  const parameters = [...byKey.values()];
  const query = new Map(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
  const examples = new Map<string, string[]>();
  for (const [status, response] of Object.entries(operation.responses)) {
    const media = Object.values((response as { content?: Record<string, { examples?: object }> }).content ?? {})[0];
    examples.set(status, Object.keys(media?.examples ?? {}));
  }
  return {
    id: operation.operationId ?? `${method} ${path}`,
    method: method.toUpperCase(),
    path,
    query,
    deepObjects: new Set([...query.values()].filter((p) => p.style === 'deepObject').map((p) => p.name)),
    pathNames: new Set(parameters.filter((p) => p.in === 'path').map((p) => p.name)),
    requirements: (operation.security ?? doc.security ?? []).map((requirement) => Object.keys(requirement).map((id) => schemes[id] ?? { type: 'unknown' })),
    credentialQuery,
    body: requestBody(operation.requestBody as { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined),
    examples,
    deprecated: operation.deprecated === true,
  };
}

function requestBody(body: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined): RequestBodyModel | undefined {
  const [mediaType, media] = Object.entries(body?.content ?? {})[0] ?? [];
  const kind = bodyKind(mediaType);
  if (!mediaType || !media?.schema || (kind !== 'json' && kind !== 'multipart' && kind !== 'form')) return undefined;
  const files = new Map<string, number | undefined>();
  for (const [name, property] of Object.entries((media.schema.properties ?? {}) as Record<string, JsonSchema>)) {
    if (isFileSchema(property)) files.set(name, typeof property.maxLength === 'number' ? property.maxLength : undefined);
  }
  return { kind, mediaType, schema: media.schema, required: body?.required === true, files };
}
