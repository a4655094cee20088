/** A file a generator produces, with its path relative to the repository root. */
export interface GeneratedFile {
  path: string;
  contents: string;
}

/** A generator: a pure function from the bundled document to the files it owns (all under `folder`). */
export interface Generator<Doc> {
  name: string;
  folder: string;
  generate(doc: Doc): Promise<GeneratedFile[]>;
}
