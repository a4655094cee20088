import type { Reference } from '../../packages/server/src/openapi-model.ts';

/** The small part of the OpenAPI 3.1 object model that the generators, the coverage report and the tests read. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  servers?: { url: string; variables?: Record<string, { default: string }> }[];
  security?: SecurityRequirement[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, PathItem>;
  components?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export type SecurityRequirement = Record<string, string[]>;
export type JsonSchema = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
  style?: string;
  explode?: boolean;
  example?: unknown;
  examples?: Record<string, { value?: unknown } | Reference>;
  [key: string]: unknown;
}

export interface MediaType {
  schema?: JsonSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown } | Reference>;
  [key: string]: unknown;
}

export interface Response {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: (Parameter | Reference)[];
  requestBody?: { required?: boolean; content: Record<string, MediaType> } | Reference;
  responses: Record<string, Response | Reference>;
  security?: SecurityRequirement[];
  deprecated?: boolean;
  [key: string]: unknown;
}

export interface PathItem {
  parameters?: (Parameter | Reference)[];
  [method: string]: unknown;
}
