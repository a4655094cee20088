/**
 * Repository paths named in backticks (`packages/fake/src/index.ts`, `npx vitest run test/<file>.test.ts`), so that a test
 * can check that each still leads somewhere. The rule:
 * - a path is a whitespace-separated word of a backticked span that starts with one of `ROOT_FOLDERS`; trailing
 *   punctuation, a `:line` suffix and a `#anchor` are not part of it;
 * - a word with a `<placeholder>` or an ellipsis (`…`, `...`) names a pattern: the folder before it must exist;
 * - a word with a glob (`*`, `?`, `{a,b}`) must match at least one existing path, each `{…}` alternative its own;
 * - any other word must be an existing file or folder.
 */
export const ROOT_FOLDERS = ['packages/', 'test/', 'scripts/', 'generators/', 'docs/', 'openapi/'];

/** Markdown files that record the past (paths as they were then), which the check leaves out. */
export function isRecord(file: string): boolean {
  return file.endsWith('CHANGELOG.md') || file.startsWith('docs/reviews/') || file.startsWith('releases/');
}

/** The repository paths named in backticks in a text, each with its line number. */
export function backtickedPaths(text: string): { line: number; path: string }[] {
  const out: { line: number; path: string }[] = [];
  text.split('\n').forEach((content, index) => {
    for (const span of content.matchAll(/`([^`]+)`/g))
      for (const word of span[1]!.split(/\s+/)) {
        const path = word
          .replace(/^['"(]+/, '')
          .replace(/#.*$/, '')
          .replace(/:\d[\d,-]*$/, '')
          .replace(/[.,;:)'"]+$/, '');
        if (ROOT_FOLDERS.some((folder) => path.startsWith(folder))) out.push({ line: index + 1, path });
      }
  });
  return out;
}

/** What the check needs to know of the tree: whether a path exists, and the names in a folder. */
export interface Tree {
  exists(path: string): boolean;
  children(folder: string): string[];
}

/** Whether a path leads somewhere, under the rule above. */
export function leadsSomewhere(path: string, tree: Tree): boolean {
  const pattern = /<[^>]*>|…|\.\.\./.exec(path);
  if (pattern) return tree.exists(path.slice(0, path.lastIndexOf('/', pattern.index)) || '.');
  const brace = /\{([^{}]*)\}/.exec(path);
  if (brace) return brace[1]!.split(',').every((choice) => leadsSomewhere(path.replace(brace[0], choice), tree));
  return matches(path.split('/').filter(Boolean), '', tree);
}

/** Whether the segments (`*`, `?` and `**` allowed) match an existing path under `base`. */
function matches(segments: string[], base: string, tree: Tree): boolean {
  const [segment, ...rest] = segments;
  if (segment === undefined) return true;
  const at = (name: string) => (base === '' ? name : `${base}/${name}`);
  if (segment === '**')
    return matches(rest, base, tree) || tree.children(base).some((name) => matches(segments, at(name), tree));
  if (!/[*?]/.test(segment)) return tree.exists(at(segment)) && matches(rest, at(segment), tree);
  const regex = new RegExp(
    `^${segment
      .replace(/[.+^$()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
  return tree.children(base).some((name) => regex.test(name) && matches(rest, at(name), tree));
}
