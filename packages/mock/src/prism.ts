/**
 * The parts of Prism the mock calls, each loaded the first time it is needed, from packages the mock declares.
 *
 * The negotiator is a deep import into `@stoplight/prism-http/dist` (pinned exactly in mock/package.json): Prism's
 * public entry point does not export it, and loading that entry point (its whole mocker: faker, json-schema-faker,
 * the forwarder) delays the first answer of `npm run mock` from 0.78 s to 1.69 s (median of 5 starts on the 2-core
 * development machine, 0.5.0), past the mock's 1 s goal; the negotiator alone loads in about 35 ms, the entry point
 * in 640 ms or more. The dynamic instance (`Prefer: dynamic=true`) does use the public entry point.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
export type PrismError = Error & { status?: number };
export type PrismOutput = Either<
  PrismError,
  { output: { statusCode: number; headers?: Record<string, unknown>; body?: unknown } }
>;

export interface PrismHeader {
  name: string;
  schema?: object;
  examples?: { key?: string; value?: unknown }[];
}

export interface Negotiated {
  code: string;
  mediaType?: string;
  bodyExample?: { key?: string; value?: unknown };
  schema?: object;
  headers?: PrismHeader[];
}

interface Negotiator {
  negotiateOptionsForValidRequest(
    operation: object,
    options: object,
  ): (logger: object) => Either<PrismError, Negotiated>;
}

type PrismInstance = { request(input: object, operations: object[], config: object): () => Promise<PrismOutput> };

/** A logger that drops every line, for Prism's calls that take one. */
export const silentLogger: Record<string, unknown> = {};
for (const level of ['trace', 'debug', 'info', 'success', 'warn', 'error', 'fatal', 'log'])
  silentLogger[level] = () => undefined;
silentLogger.child = () => silentLogger;

let negotiatorModule: Negotiator | undefined;
/** Prism's choice of the documented response, media type and example for a request's `code`/`exampleKey`. */
export const negotiator = (): Negotiator =>
  (negotiatorModule ??= (
    require('@stoplight/prism-http/dist/mocker/negotiator/NegotiatorHelpers') as { default: Negotiator }
  ).default);

let sampler: { sample(schema: object, options: object, spec?: object): unknown } | undefined;
/** The static sample Prism renders for a schema without an example. */
export const sample = (schema: object, operation: object): unknown => {
  sampler ??= require('@stoplight/json-schema-sampler') as NonNullable<typeof sampler>;
  return sampler.sample(schema, { ticks: 2500 }, operation);
};

let dynamicPrism: Promise<PrismInstance> | undefined;
/** A Prism instance that only mocks (no validation, security or proxying), loaded the first time it is needed. */
export const prismInstance = (): Promise<PrismInstance> =>
  (dynamicPrism ??= import('@stoplight/prism-http').then(
    ({ createInstance }) =>
      createInstance(
        {
          mock: { dynamic: true },
          checkSecurity: false,
          validateRequest: false,
          validateResponse: false,
          errors: false,
          upstreamProxy: undefined,
          isProxy: false,
        } as never,
        { logger: silentLogger as never },
      ) as unknown as PrismInstance,
  ));
