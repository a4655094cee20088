import { folder as clientFolder, generateClient } from './client.ts';
import type { GeneratedFile } from './lib/files.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { folder as publishedFolder, generatePublished } from './published.ts';
import { generateReference } from './reference.ts';
import { folder as serverFolder, generateServer } from './server.ts';
import { folder as typesFolder, generateTypes } from './types.ts';
import { folder as validatorsFolder, generateValidators } from './validators.ts';

export interface GeneratorModule {
  name: string;
  /** The folder the generator owns: every file in it is its output. */
  folder: string;
  generate(doc: OpenApiDocument): Promise<GeneratedFile[]>;
}

/** Every output, in the order the build runs them. */
export const generators: GeneratorModule[] = [
  // The HTML reference shares generated/openapi/ with the published document, so one entry owns the folder.
  {
    name: 'published',
    folder: publishedFolder,
    generate: async (doc) => [...(await generatePublished(doc)), ...(await generateReference(doc))],
  },
  { name: 'types', folder: typesFolder, generate: generateTypes },
  { name: 'validators', folder: validatorsFolder, generate: generateValidators },
  { name: 'client', folder: clientFolder, generate: generateClient },
  { name: 'server', folder: serverFolder, generate: generateServer },
];
