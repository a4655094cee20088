/**
 * What reverse proxies do to absolute URLs the upstream sends about itself: a `Link` or `Location` at the upstream
 * (its origin and path prefix) is rewritten to the proxy's own configured origin (never the `Host` a client sent, which
 * anyone can set: `Host: evil.example` would send the next page and its credentials there), so that a client pages and follows
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
export function upstreamUrlRewriter(upstreamBase: string): (raw: string[], proxyOrigin: string) => Rewritten {
  const prefix = upstreamBase.toLowerCase();
  const rewriteUrl = (url: string, proxyOrigin: string): string | undefined => {
    if (!url.toLowerCase().startsWith(prefix)) return undefined;
    const rest = url.slice(prefix.length);
    return rest === '' || /^[/?#]/.test(rest) ? proxyOrigin + rest : undefined;
  };
  return (raw, proxyOrigin) => {
    const rewritten: RewrittenHeader[] = [];
    let headers = raw;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!.toLowerCase();
      if (name !== 'link' && name !== 'location') continue;
      const value = raw[i + 1]!;
      const changed =
        name === 'location'
          ? rewriteUrl(value, proxyOrigin)
          : value.replace(/<([^>]*)>/g, (whole, url: string) => {
              const to = rewriteUrl(url, proxyOrigin);
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
