import { buildClient, folder as clientFolder, generateClient } from './client.ts';
import type { GeneratedFile } from './lib/files.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { folder as publishedFolder, generatePublished } from './published.ts';
import { generateReference } from './reference.ts';
import { buildServer, folder as serverFolder, generateServer } from './server.ts';
import { buildTypes, folder as typesFolder, generateTypes } from './types.ts';
import { buildValidatorsPackage, folder as validatorsFolder, generateValidators } from './validators.ts';

export interface GeneratorModule {
  name: string;
  /** The folder under generated/ the generator owns: every file in it is its output. */
  folder: string;
  generate(doc: OpenApiDocument): Promise<GeneratedFile[]>;
  /**
   * For a package: its compiled `packages/<name>/dist/` (every file in it), from its hand-written `src/` and what
   * `generate` made of the document. Built, never committed.
   */
  build?: { folder: string; files(doc: OpenApiDocument, generated: GeneratedFile[]): Promise<GeneratedFile[]> };
}

const dist = (name: string) => `packages/${name}/dist`;

/** Every output, in the order the build runs them (a package after those it depends on). */
export const generators: GeneratorModule[] = [
  // The HTML reference shares generated/openapi/ with the published document, so one entry owns the folder.
  {
    name: 'published',
    folder: publishedFolder,
    generate: async (doc) => [...(await generatePublished(doc)), ...(await generateReference(doc))],
  },
  {
    name: 'types',
    folder: typesFolder,
    generate: generateTypes,
    build: { folder: dist('types'), files: async (doc, generated) => buildTypes(doc, generated) },
  },
  {
    name: 'validators',
    folder: validatorsFolder,
    generate: generateValidators,
    build: { folder: dist('validators'), files: buildValidatorsPackage },
  },
  {
    name: 'client',
    folder: clientFolder,
    generate: generateClient,
    build: { folder: dist('client'), files: buildClient },
  },
  {
    name: 'server',
    folder: serverFolder,
    generate: generateServer,
    build: { folder: dist('server'), files: buildServer },
  },
];
