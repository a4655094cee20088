/**
 * A Service answer as a tool result: the success body as `structuredContent` (a list wrapped with its paging fields),
 * the same JSON as text for clients that read text only, and lists cut at an item boundary when they would pass the
 * size limit, saying how to get the rest.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ApiResponse, Pagination } from '@service-api/client';
import { encodeCursor } from './cursor.ts';
import type { ToolEntry } from './tool-entry.ts';

/** The default largest answer in characters (of its JSON): about 6 k tokens, a small share of a model's context. */
export const DEFAULT_MAX_ANSWER_CHARS = 25_000;

type Answer = ApiResponse<unknown, Record<string, unknown>>;

/**
 * The result of a successful call: what the tool answers for this answer of the Service. `text` is the answer's body
 * as received, which the result's text content reuses (a list's inside its paging fields) instead of serialising the
 * parsed body again, unless the list is cut; the caller passes it only when it holds nothing to redact.
 */
export async function successResult(
  entry: ToolEntry,
  answer: Answer,
  limit: number,
  text?: string,
): Promise<CallToolResult> {
  const json = jsonText(answer.data, text);
  switch (entry.output) {
    case 'list': {
      const [content, shown] = listContent(entry, answer, limit, json);
      return structured(content, shown);
    }
    case 'object':
      return structured(answer.data as Record<string, unknown>, json);
    case 'value':
      return answer.data === undefined ? structured({}) : structured({ value: answer.data }, wrapped('value', json));
    case 'file':
      return fileResult(answer.data, limit);
    case 'headers':
      return { content: [{ type: 'text', text: JSON.stringify({ status: answer.status, headers: answer.headers }) }] };
    default:
      return { content: [{ type: 'text', text: `Done: the Service answered ${answer.status} with no body.` }] };
  }
}

/** The body's text when it is the JSON of `data` (a text answer that is no JSON string is not). */
function jsonText(data: unknown, text: string | undefined): string | undefined {
  if (text === undefined || data === undefined) return undefined;
  return typeof data !== 'string' || /^\s*"/.test(text) ? text : undefined;
}

/** `{"name":JSON,…rest}`: an object's JSON with `json` as its first field, without serialising `json` again. */
function wrapped(name: string, json: string | undefined, rest: Record<string, unknown> = {}): string | undefined {
  if (json === undefined) return undefined;
  const more = JSON.stringify(rest);
  return `{${JSON.stringify(name)}:${json}${more === '{}' ? '' : `,${more.slice(1, -1)}`}}`;
}

/** The content as `structuredContent` and as its JSON text (`text`, when already serialized). */
function structured(content: Record<string, unknown>, text = JSON.stringify(content)): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: content };
}

/** The paging fields of an answer: the `x-` headers, and the `Link` of a keyset list as its `next_cursor`. */
function pagingFields(entry: ToolEntry, pagination: Pagination): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields: [string, number | undefined][] = [
    ['page', pagination.page],
    ['per_page', pagination.perPage],
    ['next_page', pagination.nextPage],
    ['prev_page', pagination.prevPage],
    ['total', pagination.total],
    ['total_pages', pagination.totalPages],
  ];
  for (const [name, value] of fields) if (value !== undefined) out[name] = value;
  if (entry.inputs.cursor && pagination.next && pagination.nextPage === undefined)
    out.next_cursor = encodeCursor(pagination.next);
  return out;
}

/**
 * A list's content and its JSON: the whole page when it fits under `limit` characters, else its first items. `json`
 * is the page's JSON as received, when there is one to reuse.
 */
function listContent(
  entry: ToolEntry,
  answer: Answer,
  limit: number,
  json: string | undefined,
): [Record<string, unknown>, string] {
  const items = Array.isArray(answer.data) ? answer.data : [];
  const paging = pagingFields(entry, answer.pagination);
  const whole = { items, ...paging };
  const text = (Array.isArray(answer.data) && wrapped('items', json, paging)) || JSON.stringify(whole);
  if (text.length <= limit || items.length === 0) return [whole, text];
  const shown = fittingItems(items, paging, limit);
  const truncated = { shown, of: items.length, rest: restArguments(answer.pagination, shown) };
  const cut = { items: items.slice(0, shown), ...paging, truncated };
  return [cut, JSON.stringify(cut)];
}

/** How many items from the start fit under `limit` characters with the paging fields (at least one). */
function fittingItems(items: unknown[], paging: Record<string, unknown>, limit: number): number {
  // The truncation note takes some room too.
  let room = limit - JSON.stringify(paging).length - 200;
  let count = 0;
  for (const item of items) {
    room -= JSON.stringify(item).length + 1;
    if (room < 0) break;
    count += 1;
  }
  return Math.max(1, count);
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * Arguments that answer the items after the `shown` first ones of this page: a page size that divides their offset,
 * and the page that starts there. Without page numbers (keyset), a page size of `shown` from the same start, then
 * `next_cursor`.
 */
function restArguments(pagination: Pagination, shown: number): Record<string, number> {
  if (pagination.page === undefined || pagination.perPage === undefined) return { per_page: shown };
  const offset = (pagination.page - 1) * pagination.perPage + shown;
  const perPage = gcd(offset, shown);
  return { page: offset / perPage + 1, per_page: perPage };
}

/** A download: text as text (cut at the limit), anything else as a base64 resource when it fits. */
async function fileResult(data: unknown, limit: number): Promise<CallToolResult> {
  if (!(data instanceof Blob)) return { content: [{ type: 'text', text: String(data ?? '') }] };
  const bytes = new Uint8Array(await data.arrayBuffer());
  const text = asText(bytes);
  if (text !== undefined) {
    const cut = text.length > limit;
    const note = cut ? `\n\n[Cut at ${limit} of ${text.length} characters: the answer size limit.]` : '';
    return { content: [{ type: 'text', text: (cut ? text.slice(0, limit) : text) + note }] };
  }
  const blob = Buffer.from(bytes).toString('base64');
  if (blob.length > limit)
    return {
      content: [
        {
          type: 'text',
          text: `A binary file of ${bytes.length} bytes (${data.type || 'no type'}): over the answer size limit of ${limit} characters.`,
        },
      ],
    };
  return {
    content: [
      {
        type: 'resource',
        resource: { uri: 'service-api:file', mimeType: data.type || 'application/octet-stream', blob },
      },
    ],
  };
}

/** The bytes as text when they are UTF-8 without NUL characters. */
function asText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
