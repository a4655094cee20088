/** What every domain's handlers share: the context, not-found answers and pagination over real collections. */
import type { FastifyRequest } from 'fastify';
import type { Principal } from './auth.ts';
import type { FakeUser } from './data.ts';
import type { Project, Store } from './store.ts';

export interface Context {
  store: Store;
}

export const message = (text: string) => ({ message: text });
export const PROJECT_NOT_FOUND = { status: 404 as const, body: message('404 Project Not Found') };
export const FORBIDDEN = { status: 403 as const, body: message('403 Forbidden') };

/** The project a caller may read, or undefined (answered 404 like the Service: not found or not accessible). */
export function readableProject(
  store: Store,
  id: string | number,
  principal: Principal | undefined,
): Project | undefined {
  const project = store.findProject(id);
  return project && store.canRead(project, principal?.user) ? project : undefined;
}

export function userBasic(store: Store, user: FakeUser | undefined) {
  if (!user) return null;
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    state: user.state ?? 'active',
    avatar_url: avatarUrl(store, user),
    web_url: `${webBase(store)}/${user.username}`,
  };
}

/** Where the user's uploaded avatar is served, or null without one. */
export function avatarUrl(store: Store, user: FakeUser): string | null {
  return user.avatar
    ? `${webBase(store)}/uploads/-/system/user/avatar/${user.id}/${encodeURIComponent(user.avatar.filename)}`
    : null;
}

export function webBase(_store: Store): string {
  return 'https://service.example';
}

/**
 * `build` cached while the state stays as it is: every write moves `store.revision` on, which empties the cache. At
 * most `max` values are kept (a client paging through a large list in one revision). The values are shared by every
 * read, so they are deeply frozen: nothing can change them, and the server runtime keeps each one's JSON text from its second response on.
 */
export function perRevision<K extends object, V>(store: Store, build: (key: K) => V, max = 1000): (key: K) => V {
  const cache = new Map<K, V>();
  let at = -1;
  return (key) => {
    if (at !== store.revision || cache.size >= max) {
      cache.clear();
      at = store.revision;
    }
    let value = cache.get(key);
    if (value === undefined) {
      value = deepFreeze(build(key));
      cache.set(key, value);
    }
    return value;
  };
}

/** `value` and every object in it frozen (a handler that must change a shared value changes a copy). */
export function deepFreeze<T>(value: T): T {
  const seen = new Set<object>();
  const freeze = (item: unknown) => {
    if (typeof item !== 'object' || item === null || seen.has(item)) return;
    seen.add(item);
    Object.freeze(item);
    for (const child of Object.values(item)) freeze(child);
  };
  freeze(value);
  return value;
}

/** The longest `Link` header the fake sends. */
export const MAX_LINK = 8192;

export interface Page<T> {
  items: T[];
  headers: Record<string, string>;
}

/**
 * One page of a collection with the API's pagination headers: `Link` (first, prev, next, last) at the URL the client
 * used, `x-page`, `x-per-page`, `x-next-page`, `x-prev-page`, `x-total`, `x-total-pages`. `per_page` is at most 100.
 */
export function paginate<T>(items: T[], query: { page?: number; per_page?: number }, request: FastifyRequest): Page<T> {
  const perPage = Math.min(Math.max(query.per_page ?? 20, 1), 100);
  const page = Math.max(query.page ?? 1, 1);
  return {
    items: items.slice((page - 1) * perPage, page * perPage),
    headers: pageHeaders(items.length, page, perPage, request),
  };
}

/** The headers of recent pages: the same list read again by the same URL gets the same headers without URL parsing. */
const recentHeaders = new Map<string, Record<string, string>>();

function pageHeaders(total: number, page: number, perPage: number, request: FastifyRequest): Record<string, string> {
  const key = `${total} ${page} ${perPage} ${request.protocol}://${request.headers.host ?? 'localhost'} ${request.raw.url ?? '/'}`;
  let headers = recentHeaders.get(key);
  if (!headers) {
    if (recentHeaders.size >= 256) recentHeaders.clear();
    headers = computeHeaders(total, page, perPage, request);
    // A hostile URL is up to the query limit long: only the usual ones are kept.
    if (key.length <= 2048) recentHeaders.set(key, headers);
  }
  return { ...headers }; // a handler may add to its copy
}

function computeHeaders(total: number, page: number, perPage: number, request: FastifyRequest): Record<string, string> {
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const at = (n: number) => `<${pageUrl(request, n, perPage)}>`;
  const links = [
    ...(page > 1 ? [`${at(Math.min(page - 1, totalPages))}; rel="prev"`] : []),
    ...(page < totalPages ? [`${at(page + 1)}; rel="next"`] : []),
    `${at(1)}; rel="first"`,
    `${at(totalPages)}; rel="last"`,
  ];
  // The links repeat the request's query: past 8 KiB (a hostile query) they are left out rather than overflow a client's
  // header limit; x-page and x-next-page still say where the next page is.
  const link = links.join(', ');
  return {
    ...(link.length <= MAX_LINK ? { link } : {}),
    'x-page': String(page),
    'x-per-page': String(perPage),
    'x-next-page': page < totalPages ? String(page + 1) : '',
    'x-prev-page': page > 1 ? String(Math.min(page - 1, totalPages)) : '',
    'x-total': String(total),
    'x-total-pages': String(totalPages),
  };
}

function pageUrl(request: FastifyRequest, page: number, perPage: number): string {
  const url = new URL(request.raw.url ?? '/', `${request.protocol}://${request.headers.host ?? 'localhost'}`);
  url.searchParams.set('page', String(page));
  url.searchParams.set('per_page', String(perPage));
  return url.toString();
}

/** Query parameters the operation does not document (the Service reads some of them), parsed from the raw URL. */
export function rawQuery(request: FastifyRequest): URLSearchParams {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  try {
    return new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
  } catch {
    return new URLSearchParams();
  }
}

const BASIC_DATE_TIME = /^(\d{4})(\d{2})(\d{2})[Tt](\d{2})(\d{2})?(\d{2})?([.,]\d+)?([Zz]|[+-]\d{2}(?:\d{2})?)?$/;

/**
 * The instant of an ISO 8601 date-time in the extended (`2026-06-30T12:00:00Z`) or the basic (`20260630T120000Z`)
 * form, with a `.` or `,` fraction, a time without a zone read as UTC; NaN when it is not one. The document's `Iso8601DateTime` says which forms a
 * request may carry; this reads the ones it admits.
 */
export function parseIso8601DateTime(text: string): number {
  const basic = BASIC_DATE_TIME.exec(text);
  const extended = basic
    ? `${basic[1]}-${basic[2]}-${basic[3]}T${basic[4]}:${basic[5] ?? '00'}:${basic[6] ?? '00'}${basic[7] ?? ''}${basic[8] ?? ''}`
    : text;
  return Date.parse(
    extended
      .replace(',', '.')
      .replace(/([+-]\d{2})(\d{2})$/, '$1:$2')
      .replace(/(T.*[+-]\d{2})$/, '$1:00')
      .replace(/(T[\d:.]+)$/, '$1Z'),
  );
}

/**
 * One value per store, made on its first use: the state a tag's handlers keep for the store they serve (a cache, a
 * memo), as their closure kept it before they became functions of the store.
 */
export function perStore<T>(make: (store: Store) => T): (store: Store) => T {
  const values = new WeakMap<Store, T>();
  return (store) => {
    if (!values.has(store)) values.set(store, make(store));
    return values.get(store)!;
  };
}
