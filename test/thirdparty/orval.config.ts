/**
 * orval's three outputs a team takes: the fetch client with its models, msw handlers (mock: true) and zod schemas.
 * Two settings a team needs (README.md): `urlEncodeParameters`, without which the fetch client puts a path id such as
 * `my-group/my-project` into the URL as two segments (orval-labs/orval#679, #2172), and `mock.exactOptional`, without
 * which the mocks do not compile under `exactOptionalPropertyTypes` (orval-labs/orval#3912).
 */
import { defineConfig } from 'orval';

const input = { target: '../../generated/openapi/openapi.json' };
export default defineConfig({
  api: {
    input,
    output: {
      target: 'out/orval/api.ts',
      schemas: 'out/orval/model',
      client: 'fetch',
      mode: 'single',
      mock: true,
      baseUrl: 'http://127.0.0.1/api/v4',
      urlEncodeParameters: true,
      override: { mock: { exactOptional: true } },
    },
  },
  zod: { input, output: { target: 'out/orval/zod.ts', client: 'zod', mode: 'single' } },
});
