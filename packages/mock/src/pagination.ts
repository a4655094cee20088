/**
 * The mock answers every list with one page (the documented example), so its pagination headers say so: `first` and
 * `last` links to the page requested, at the URL the client used, and no next page. Clients that follow
 * `rel="next"` then stop after one request instead of looping on the example's links. A very long query is left out of
 * the links (beyond `page` and `per_page`), so that the header stays within what clients read.
 */
const MAX_LINK_URL = 2048;

export function singlePageHeaders(requestUrl: URL): Record<string, string> {
  const page = requestUrl.searchParams.get('page') ?? '1';
  const link = new URL(requestUrl);
  if (link.href.length > MAX_LINK_URL) {
    const perPage = requestUrl.searchParams.get('per_page');
    link.search = '';
    if (perPage !== null && perPage.length < 10) link.searchParams.set('per_page', perPage);
  }
  if (!link.searchParams.has('pagination')) link.searchParams.set('page', page);
  const url = link.toString().replace(/%5B/g, '[').replace(/%5D/g, ']');
  return { Link: `<${url}>; rel="first", <${url}>; rel="last"`, 'x-page': page, 'x-next-page': '' };
}
