/**
 * hey-api as a team runs it: types, the SDK on the fetch client, zod. `dates.offset`: the document's `date-time` is
 * RFC 3339, which allows an offset (`2025-03-11T11:00:58.000+01:00`, as the Service sends commit dates); hey-api's zod
 * refuses offsets unless told (README.md, "Settings a team needs").
 */
import { defineConfig } from '@hey-api/openapi-ts';

export default defineConfig({
  input: '../../generated/openapi/openapi.json',
  output: { path: 'out/hey-api' },
  logs: { file: false },
  plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk', { name: 'zod', dates: { offset: true } }],
});
