/**
 * The document the mock serves: the published `openapi.json` of the contract, shipped inside the package (copied there
 * by the build). Run from the repository's sources (`npm run mock`), it is the one `npm run build` publishes.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { MockDocument } from './responses.ts';

export const documentPath = fileURLToPath(
  import.meta.url.endsWith('.ts')
    ? new URL('../../../generated/openapi/openapi.json', import.meta.url)
    : new URL('../openapi.json', import.meta.url),
);

export async function loadDocument(): Promise<MockDocument> {
  const text = await readFile(documentPath, 'utf8').catch(() => {
    throw new Error(
      `${documentPath} is missing${import.meta.url.endsWith('.ts') ? ': run `npm run build` first' : ''}`,
    );
  });
  return JSON.parse(text) as MockDocument;
}
