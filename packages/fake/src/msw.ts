/**
 * `@service-api/fake/msw`: MSW request handlers backed by the fake in this process. Every request MSW intercepts under
 * the API's base URL is answered by the fake's in-process `fetch` (the server package's input path, the fake's state),
 * so a Node test (`setupServer` from `msw/node`) or a Storybook-style run has the stateful Service with no listening
 * socket, and the code under test calls its normal URL.
 */
import { http, type HttpHandler } from 'msw';
import type { Fake } from './index.ts';

export interface FakeHandlersOptions {
  /** The API's base URL the code under test calls, with or without `/api/v4` (default `https://service.example`). */
  baseUrl?: string;
}

/** One handler: every method under `baseUrl`, answered by `fake.fetch`. */
export function fakeHandlers(fake: Pick<Fake, 'fetch'>, options: FakeHandlersOptions = {}): HttpHandler[] {
  const base = new URL(options.baseUrl ?? 'https://service.example');
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new TypeError(`baseUrl must be an http: or https: URL, got ${base.protocol}`);
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  return [http.all(`${prefix}/*`, ({ request }) => fake.fetch(request))];
}
