import { buildClient, clientPackage, folder as clientFolder, generateClient } from './client.ts';
import type { GeneratedFile } from './lib/files.ts';
import { type ContractPackage, packageDir } from './lib/package.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { folder as mcpFolder, generateMcp } from './mcp.ts';
import { generateOpenApi30 } from './openapi30.ts';
import { buildOpenApiPackage, openapiPackage } from './openapi-package.ts';
import { folder as publishedFolder, generatePublished } from './published.ts';
import { generateOperationIndex } from './reference.ts';
import { buildServer, folder as serverFolder, generateServer, serverPackage } from './server.ts';
import { buildTypes, folder as typesFolder, generateTypes, typesPackage } from './types.ts';
import {
  buildValidatorsPackage,
  folder as validatorsFolder,
  generateValidators,
  validatorsPackage,
} from './validators.ts';

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

const dist = (pkg: ContractPackage) => `${packageDir(pkg)}/dist`;

/** Every output, in the order the build runs them (a package after those it depends on). */
export const generators: GeneratorModule[] = [
  // The 3.0 rendition and the operation index share generated/openapi/ with the published document, so one entry owns
  // the folder.
  {
    name: 'published',
    folder: publishedFolder,
    generate: async (doc) => [
      ...(await generatePublished(doc)),
      ...(await generateOpenApi30(doc)),
      ...(await generateOperationIndex(doc)),
    ],
    // @service-api/openapi: the published files, their dereferenced forms, the HTML reference, the examples and a
    // small module.
    build: { folder: dist(openapiPackage), files: buildOpenApiPackage },
  },
  {
    name: 'types',
    folder: typesFolder,
    generate: generateTypes,
    build: { folder: dist(typesPackage), files: async (doc, generated) => buildTypes(doc, generated) },
  },
  {
    name: 'validators',
    folder: validatorsFolder,
    generate: generateValidators,
    build: { folder: dist(validatorsPackage), files: buildValidatorsPackage },
  },
  {
    name: 'client',
    folder: clientFolder,
    generate: generateClient,
    build: { folder: dist(clientPackage), files: buildClient },
  },
  {
    name: 'server',
    folder: serverFolder,
    generate: generateServer,
    build: { folder: dist(serverPackage), files: buildServer },
  },
  // @service-api/mcp runs on the client, the validators and the fake: its dist/ is compiled with the packages written
  // by hand, after them (scripts/lib/node-packages.ts).
  { name: 'mcp', folder: mcpFolder, generate: generateMcp },
];
