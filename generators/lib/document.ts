import { HTTP_METHODS, type HttpMethod, resolve } from '../../packages/server/src/openapi-model.ts';
import type {
  MediaType,
  OpenApiDocument,
  Operation,
  Parameter,
  PathItem,
  Response,
  SecurityRequirement,
} from './openapi.ts';

export interface OperationEntry {
  method: HttpMethod;
  path: string;
  operationId: string;
  operation: Operation;
  /** Path-item and operation parameters, resolved; operation parameters override path-item ones. */
  parameters: Parameter[];
  /** The security requirements in force: the operation's, else the document's. */
  security: SecurityRequirement[];
}

/** Every operation of the document, in document order. */
export function listOperations(doc: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    const item = resolve<PathItem>(doc, rawItem);
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const byKey = new Map<string, Parameter>();
      for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
        const parameter = resolve<Parameter>(doc, raw);
        byKey.set(`${parameter.in}:${parameter.name}`, parameter);
      }
      entries.push({
        method,
        path,
        operationId: operation.operationId ?? `${method} ${path}`,
        operation,
        parameters: [...byKey.values()],
        security: operation.security ?? doc.security ?? [],
      });
    }
  }
  return entries;
}

/** Whether an operation requires credentials: some scheme is required and anonymous access (`{}`) is not allowed. */
export function requiresAuthentication(entry: OperationEntry): boolean {
  return entry.security.length > 0 && !entry.security.some((requirement) => Object.keys(requirement).length === 0);
}

export interface ResponseEntry {
  status: string;
  response: Response;
  /** The JSON media type of the response, when it has one. */
  json?: { mediaType: string; content: MediaType };
}

export function listResponses(doc: OpenApiDocument, entry: OperationEntry): ResponseEntry[] {
  return Object.entries(entry.operation.responses).map(([status, raw]) => {
    const response = resolve<Response>(doc, raw);
    const mediaType = Object.keys(response.content ?? {}).find(isJsonMediaType);
    return { status, response, json: mediaType ? { mediaType, content: response.content![mediaType]! } : undefined };
  });
}

export function isJsonMediaType(mediaType: string): boolean {
  return /^application\/([\w.+-]+\+)?json\b/i.test(mediaType);
}

/** The documented success status a server answers with by default: the lowest 2xx. */
export function successStatus(entry: OperationEntry): string | undefined {
  return Object.keys(entry.operation.responses)
    .filter((s) => /^2\d\d$/.test(s))
    .sort()[0];
}
