/**
 * The mock's lists are the documented example, paged as the Service pages a list: the request's `page` and `per_page`
 * (default 20, at most 100) choose a slice of the example, and the pagination headers say where it is in the whole
 * (`x-total`, `x-total-pages`, `x-per-page`, `x-page`, `x-next-page`, `x-prev-page`, and `Link` with `first`, `last`
 * and, where there is one, `prev` and `next`), at the URL the client used. Paginating clients so stop after the last
 * page instead of looping on the example's links. Keyset pagination (`pagination=keyset`) answers the example as one
 * page, without totals, as the Service sends none there. A very long query is left out of the links (beyond `page`
 * and `per_page`), so that the header stays within what clients read.
 */
const MAX_LINK_URL = 2048;
const DEFAULT_PER_PAGE = 20;
const MAX_PER_PAGE = 100;

export interface ListPage {
  headers: Record<string, string>;
  /** The slice of the example this page answers, `[start, end)`; absent: the whole example. */
  slice?: [number, number];
}

/** A positive integer from a query value, else `fallback`. */
function positive(value: string | null, fallback: number): number {
  const number = value !== null && /^\d{1,9}$/.test(value) ? Number(value) : 0;
  return number > 0 ? number : fallback;
}

/** The URL of page `page` (or the keyset page asked for) at the URL the client used. */
function pageUrl(requestUrl: URL, page: number | undefined): string {
  const link = new URL(requestUrl);
  if (link.href.length > MAX_LINK_URL) {
    const perPage = requestUrl.searchParams.get('per_page');
    link.search = '';
    if (perPage !== null && perPage.length < 10) link.searchParams.set('per_page', perPage);
  }
  if (page !== undefined) link.searchParams.set('page', String(page));
  return link.toString().replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/** The page of a list of `total` items the request asks for, and its pagination headers. */
export function listPage(requestUrl: URL, total: number): ListPage {
  if (requestUrl.searchParams.get('pagination') === 'keyset') {
    const url = pageUrl(requestUrl, undefined);
    return { headers: { link: `<${url}>; rel="first", <${url}>; rel="last"`, 'x-page': '1', 'x-next-page': '' } };
  }
  const perPage = Math.min(positive(requestUrl.searchParams.get('per_page'), DEFAULT_PER_PAGE), MAX_PER_PAGE);
  const page = positive(requestUrl.searchParams.get('page'), 1);
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const next = page < totalPages ? page + 1 : undefined;
  const prev = page > 1 ? Math.min(page - 1, totalPages) : undefined;
  const links = [
    ...(prev !== undefined ? [`<${pageUrl(requestUrl, prev)}>; rel="prev"`] : []),
    ...(next !== undefined ? [`<${pageUrl(requestUrl, next)}>; rel="next"`] : []),
    `<${pageUrl(requestUrl, 1)}>; rel="first"`,
    `<${pageUrl(requestUrl, totalPages)}>; rel="last"`,
  ];
  return {
    headers: {
      link: links.join(', '),
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-total': String(total),
      'x-total-pages': String(totalPages),
      'x-next-page': next === undefined ? '' : String(next),
      'x-prev-page': prev === undefined ? '' : String(prev),
    },
    slice: [(page - 1) * perPage, page * perPage],
  };
}
