/**
 * Classifies every difference between two OpenAPI 3.1 documents for the teams that consume them.
 *
 * Breaking: something a consumer's existing code or generated types rely on goes away or changes shape.
 *   - an operation, parameter, request field, response field, response header, success response or media type removed;
 *   - an enum value removed (requests and responses);
 *   - a request accepts less: a type or alternative removed, a new format, a tighter bound or pattern, a field or
 *     parameter newly required, extra fields newly refused;
 *   - a response field no longer required or newly nullable, or its type changed in any other way (another type,
 *     enum values added or the enum dropped): typed clients no longer compile against or exhaustively handle it;
 *   - what the generated packages name from the document: an operationId or tag changed (client method
 *     `api.<tag>.<operation>` and server handler keys), a component schema removed (an exported type alias).
 * Compatible: everything else (additions, relaxed request rules, new optional fields, texts, examples, extensions).
 *
 * One module per part of the document compared (scripts/lib/breaking/): operations, parameters, bodies, responses,
 * schemas (schema-rules: types, enums, constraints; schema-view: how a schema is read), components.
 *
 * Why not a diff tool from the registry: api-smart-diff 1.0.6 (maintained, offline, ~5 s on this document) classifies a
 * response field made nullable and a removed response enum value as non-breaking; @pb33f/openapi-changes downloads a
 * Go binary at install (not reachable here); oasdiff has no npm package; openapi-diff 0.24 (not tried) models documents
 * with openapi3-ts 2, whose model is OpenAPI 3.0.
 */
import type { OpenApiDocument } from '../../generators/lib/openapi.ts';
import { Comparison, type Difference } from './breaking/comparison.ts';
import { compareComponents, compareDocumentFields } from './breaking/components.ts';
import { compareOperations } from './breaking/operations.ts';

export type { Difference, Severity } from './breaking/comparison.ts';

/** Every difference from `before` to `after`: operations first, then components, then the document's own fields. */
export function compareDocuments(before: OpenApiDocument, after: OpenApiDocument): Difference[] {
  const comparison = new Comparison(before, after);
  compareOperations(comparison);
  compareComponents(comparison);
  compareDocumentFields(comparison);
  return comparison.differences;
}
