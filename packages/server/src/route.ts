/**
 * What the generated routes describe of each operation, and the bounds the runtime puts on every input.
 */
import type { InputShape } from './tolerance.js';

export interface RouteDescriptor {
  id: string;
  method: string;
  path: string;
  /** Query parameters not sent as plain or repeated names: `deep` is `name[key]=v`, `csv` is `name=a,b`. */
  query?: Record<string, 'deep' | 'csv'>;
  /** The security alternatives: scheme ids that must all be present. */
  security: string[][];
  authenticated: boolean;
  /** Whether the success body is JSON (else a file, or nothing). */
  json: boolean;
  /** The documented request body. */
  body?: { kind: 'json' | 'multipart'; type: string; required: boolean };
  /** The documented input, to coerce values and drop unknown fields. */
  input: InputShape;
  /** Documented header parameters, in lower case. */
  headers?: string[];
  /** Multipart file fields with their documented maximum size in bytes (null: none documented). */
  files?: Record<string, number | null>;
}

/** An operation a method and path reach, with its path parameters (decoded). */
export interface MatchedOperation {
  route: RouteDescriptor;
  params: Record<string, string>;
}

/** Bounds on every input; each has a default that fits the API's documented limits. */
export interface ServiceApiLimits {
  /** Largest JSON or form body in bytes (default 16 MiB: a 1,048,576-character description or a repository file's content, escaped). */
  jsonBody: number;
  /** Largest multipart body in bytes where the operation documents no file maximum (default 100 MiB, for imports). */
  multipartBody: number;
  /** Longest query string in bytes (default 16 KiB, Node's default header size). */
  queryLength: number;
  /** Most query parameters (default 1000). */
  queryParameters: number;
  /** Most fields of a form or multipart body (default 1000). */
  bodyFields: number;
  /** Most values (objects, arrays, scalars) in a JSON body (default 100,000). */
  jsonValues: number;
  /** Violations listed in a 400 and tolerances in a report (default 20); the total is counted. */
  errors: number;
}

export const defaultLimits: ServiceApiLimits = {
  jsonBody: 16 * 1024 * 1024,
  multipartBody: 100 * 1024 * 1024,
  queryLength: 16 * 1024,
  queryParameters: 1000,
  bodyFields: 1000,
  jsonValues: 100_000,
  errors: 20,
};
