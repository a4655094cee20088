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

/** The result of a successful call: what the tool answers for this answer of the Service. */
export async function successResult(entry: ToolEntry, answer: Answer, limit: number): Promise<CallToolResult> {
  switch (entry.output) {
    case 'list': {
      const [content, text] = listContent(entry, answer, limit);
      return structured(content, text);
    }
    case 'object':
      return structured(answer.data as Record<string, unknown>);
    case 'value':
      return structured(answer.data === undefined ? {} : { value: answer.data });
    case 'file':
      return fileResult(answer.data, limit);
    case 'headers':
      return { content: [{ type: 'text', text: JSON.stringify({ status: answer.status, headers: answer.headers }) }] };
    default:
      return { content: [{ type: 'text', text: `Done: the Service answered ${answer.status} with no body.` }] };
  }
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

/** A list's content and its JSON: the whole page when it fits under `limit` characters, else its first items. */
function listContent(entry: ToolEntry, answer: Answer, limit: number): [Record<string, unknown>, string] {
  const items = Array.isArray(answer.data) ? answer.data : [];
  const paging = pagingFields(entry, answer.pagination);
  const whole = { items, ...paging };
  const text = JSON.stringify(whole);
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
