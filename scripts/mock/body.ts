/**
 * Reads and parses a request body within a byte limit per media type. JSON, form-encoded and multipart bodies are
 * understood (the API reads write parameters from each); any other media type is refused with 415 before reading.
 * Parsed objects never carry `__proto__`, `constructor` or `prototype` keys: those are dropped and reported.
 */
import type { IncomingMessage } from 'node:http';
import { parseQuery } from './query.ts';

export interface BodyLimits {
  /** JSON bodies: large enough for a 1,048,576-character description or a repository file's content. */
  json: number;
  /** `application/x-www-form-urlencoded` bodies. */
  form: number;
  /** `multipart/form-data` bodies, when the operation's files have no documented size. */
  multipart: number;
}

export const DEFAULT_LIMITS: BodyLimits = { json: 16 * 1024 * 1024, form: 16 * 1024 * 1024, multipart: 100 * 1024 * 1024 };

export type BodyKind = 'json' | 'form' | 'multipart';

/** Field names that would reach an object's prototype if assigned. */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function bodyKind(contentType: string | undefined): BodyKind | 'none' | 'other' {
  if (!contentType) return 'none';
  const media = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (media === 'application/json' || /^application\/[\w.-]+\+json$/.test(media)) return 'json';
  if (media === 'application/x-www-form-urlencoded') return 'form';
  if (media === 'multipart/form-data') return 'multipart';
  return 'other';
}

/** Whether the request announces a body (a length above 0 or a chunked transfer). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

export type ReadResult = { ok: true; bytes: Buffer } | { ok: false; tooLarge: true; limit: number };

/** Reads at most `limit` bytes; past it, stops buffering and discards the rest of the request. */
export async function readLimited(req: IncomingMessage, limit: number): Promise<ReadResult> {
  const announced = Number(req.headers['content-length'] ?? 0);
  if (announced > limit) {
    req.resume();
    return { ok: false, tooLarge: true, limit };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      return { ok: false, tooLarge: true, limit };
    }
    chunks.push(chunk as Buffer);
  }
  return { ok: true, bytes: Buffer.concat(chunks, size) };
}

export interface Parsed {
  value: unknown;
  /** Keys dropped because they could reach a prototype, as `field` paths. */
  dropped: string[];
}

export type ParseResult = { ok: true; parsed: Parsed } | { ok: false; message: string };

/**
 * JSON.parse creates own properties only; a reviver drops the keys that later code could turn into prototypes. As in
 * Fastify's secure-json-parse, the (slower) reviver runs only when the text contains such a key.
 */
export function parseJson(bytes: Buffer): ParseResult {
  const dropped: string[] = [];
  const text = bytes.toString('utf8');
  const suspicious = /"(?:__proto__|constructor|prototype)"\s*:/.test(text);
  try {
    if (!suspicious) return { ok: true, parsed: { value: JSON.parse(text) as unknown, dropped } };
    const value = JSON.parse(text, function (this: unknown, key: string, item: unknown) {
      if (FORBIDDEN_KEYS.has(key) && !Array.isArray(this)) {
        dropped.push(key);
        return undefined;
      }
      return item;
    }) as unknown;
    return { ok: true, parsed: { value, dropped } };
  } catch {
    return { ok: false, message: '400 Bad request - the request body is not valid JSON' };
  }
}

export function parseForm(bytes: Buffer): ParseResult {
  const fields = parseQuery(bytes.toString('utf8'));
  if (!(fields instanceof Map)) return { ok: false, message: `400 Bad request - the form field ${JSON.stringify('malformed' in fields ? fields.malformed : '')} is not correctly escaped` };
  const entries: [string, string][] = [];
  for (const [name, values] of fields) for (const value of values) entries.push([name, value]);
  return { ok: true, parsed: nestFields(entries) };
}

export async function parseMultipart(bytes: Buffer, contentType: string): Promise<ParseResult> {
  if (!/;\s*boundary=/i.test(contentType)) return { ok: false, message: '400 Bad request - the multipart body has no boundary' };
  try {
    const form = await new Response(bytes as unknown as BodyInit, { headers: { 'content-type': contentType } }).formData();
    return { ok: true, parsed: nestFields([...form.entries()]) };
  } catch {
    return { ok: false, message: '400 Bad request - the multipart body is malformed' };
  }
}

const MAX_DEPTH = 8;

/**
 * Form field names as the API reads them: `a[b]` is a hash, `a[]` an array, anything else a plain field. Keys that
 * could reach a prototype are dropped; so are names nested deeper than 8.
 */
export function nestFields(entries: [string, string | File][]): Parsed {
  const root: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [name, value] of entries) {
    const match = /^([^[\]]*)((?:\[[^[\]]*\])*)$/.exec(name);
    const keys = match ? [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)] : [name];
    if (keys.some((k) => FORBIDDEN_KEYS.has(k)) || keys.length > MAX_DEPTH) {
      dropped.push(name);
      continue;
    }
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const last = i === keys.length - 1;
      if (Array.isArray(node)) {
        // `a[][b]` forms are not used by this API: keep the value as an item.
        node.push(value);
        break;
      }
      if (last) {
        const previous = node[key];
        if (previous === undefined) node[key] = value;
        else if (Array.isArray(previous)) previous.push(value);
        else node[key] = [previous, value];
        break;
      }
      const wantsArray = keys[i + 1] === '';
      let next = node[key];
      if (wantsArray && i + 1 === keys.length - 1) {
        if (!Array.isArray(next)) node[key] = next = next === undefined ? [] : [next];
        (next as unknown[]).push(value);
        break;
      }
      if (typeof next !== 'object' || next === null || next instanceof Blob) node[key] = next = {};
      node = next as Record<string, unknown>;
    }
  }
  return { value: root, dropped };
}
