/**
 * What reverse proxies do to absolute URLs the upstream sends about itself: a `Link` or `Location` at the upstream
 * (its origin and path prefix) is rewritten to the origin the client called, so that a client pages and follows
 * redirects through the proxy, and never learns (or sends its credentials to) the upstream's address. Other URLs
 * pass unchanged.
 */

/** The headers rewritten, by name (lower case). */
export type RewrittenHeader = 'link' | 'location';

export interface Rewritten {
  headers: string[];
  rewritten: RewrittenHeader[];
}

/** A rewriter of `[name, value, …]` raw headers from URLs under `upstreamBase` (origin + prefix) to a client origin. */
export function upstreamUrlRewriter(upstreamBase: string): (raw: string[], clientOrigin: string) => Rewritten {
  const prefix = upstreamBase.toLowerCase();
  const rewriteUrl = (url: string, clientOrigin: string): string | undefined => {
    if (!url.toLowerCase().startsWith(prefix)) return undefined;
    const rest = url.slice(prefix.length);
    return rest === '' || /^[/?#]/.test(rest) ? clientOrigin + rest : undefined;
  };
  return (raw, clientOrigin) => {
    const rewritten: RewrittenHeader[] = [];
    let headers = raw;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      if (name !== 'link' && name !== 'location') continue;
      const value = raw[i + 1]!;
      const changed =
        name === 'location'
          ? rewriteUrl(value, clientOrigin)
          : value.replace(/<([^>]*)>/g, (whole, url: string) => {
              const to = rewriteUrl(url, clientOrigin);
              return to === undefined ? whole : `<${to}>`;
            });
      if (changed === undefined || changed === value) continue;
      if (headers === raw) headers = [...raw];
      headers[i + 1] = changed;
      rewritten.push(name);
    }
    return { headers, rewritten };
  };
}

/** The origin a client called, from a well-formed `Host` header; else the proxy's own address. */
export function clientOrigin(host: string | undefined, fallback: string): string {
  return host && /^[\w.-]+(:\d{1,5})?$|^\[[\da-f:.]+\](:\d{1,5})?$/i.test(host) ? `http://${host}` : fallback;
}
