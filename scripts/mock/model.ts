/**
 * What the mock needs to know of each operation, computed once at start from the dereferenced document: its
 * parameters by place, its request body, its security requirements, and its documented statuses and example names.
 */
import { listOperations } from '../../generators/lib/document.ts';
import { isFileSchema } from '../../generators/lib/json-schema.ts';
import type { JsonSchema, OpenApiDocument, Parameter } from '../../generators/lib/openapi.ts';
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

export function operationModels(doc: OpenApiDocument): OperationModel[] {
  const schemes = (doc.components?.securitySchemes ?? {}) as Record<string, SecurityScheme>;
  const credentialQuery = new Set(Object.values(schemes).filter((s) => s.in === 'query' && s.name).map((s) => s.name!));
  return listOperations(doc).map((entry) => {
    const query = new Map(entry.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p]));
    const body = requestBody(entry.operation.requestBody as { required?: boolean; content?: Record<string, { schema?: JsonSchema }> } | undefined);
    const examples = new Map<string, string[]>();
    for (const [status, response] of Object.entries(entry.operation.responses)) {
      const media = Object.values((response as { content?: Record<string, { examples?: object }> }).content ?? {})[0];
      examples.set(status, Object.keys(media?.examples ?? {}));
    }
    return {
      id: entry.operationId,
      method: entry.method.toUpperCase(),
      path: entry.path,
      query,
      deepObjects: new Set([...query.values()].filter((p) => p.style === 'deepObject').map((p) => p.name)),
      pathNames: new Set(entry.parameters.filter((p) => p.in === 'path').map((p) => p.name)),
      requirements: entry.security.map((requirement) => Object.keys(requirement).map((id) => schemes[id] ?? { type: 'unknown' })),
      credentialQuery,
      body,
      examples,
      deprecated: entry.operation.deprecated === true,
    };
  });
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
