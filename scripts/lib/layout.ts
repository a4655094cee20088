import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve as resolvePath } from 'node:path';
import YAML from 'yaml';

const COMPONENT_KINDS = [
  'schemas',
  'parameters',
  'examples',
  'responses',
  'headers',
  'securitySchemes',
  'requestBodies',
];
const SHARED = 'components';
/** Files of `openapi/` that are not fragments of the document: the evidence for its response claims (conventions.md). */
const NOT_FRAGMENTS = new Set(['evidence.yaml']);

/**
 * Names a component may not take: the generated TypeScript exports one type alias per schema, and an alias named like
 * a platform global (`Blob`, `Date` …) would shadow it in the generated modules (a binary field typed `Blob` would
 * silently become the schema).
 */
export const RESERVED_COMPONENT_NAMES = new Set([
  'Array',
  'ArrayBuffer',
  'Blob',
  'Boolean',
  'Date',
  'Error',
  'File',
  'FormData',
  'Headers',
  'Map',
  'Number',
  'Object',
  'Promise',
  'ReadableStream',
  'Record',
  'Request',
  'Response',
  'Set',
  'String',
  'Symbol',
  'URL',
  'URLSearchParams',
]);

/** Every `$ref` file target reachable from the root fragment, as absolute paths. */
export function reachableFiles(rootFile: string): Set<string> {
  const reached = new Set<string>([rootFile]);
  const queue = [rootFile];
  while (queue.length > 0) {
    const file = queue.pop()!;
    for (const ref of collectRefs(YAML.parse(readFileSync(file, 'utf8')))) {
      const target = ref.split('#')[0];
      if (!target) continue;
      const absolute = resolvePath(dirname(file), decodeURIComponent(target));
      if (!reached.has(absolute)) {
        reached.add(absolute);
        queue.push(absolute);
      }
    }
  }
  return reached;
}

function collectRefs(node: unknown, refs: string[] = []): string[] {
  if (Array.isArray(node))
    node.forEach((item) => {
      collectRefs(item, refs);
    });
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') refs.push(value);
      else collectRefs(value, refs);
    }
  }
  return refs;
}

function yamlFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.yaml'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * The layout rules of `openapi/`, as messages (empty when all hold):
 * - a domain fragment that nothing references is an orphan (shared `components/` pieces may wait for a first user);
 * - component file names are unique per kind, since the bundle names components after their files;
 * - a path file is named for its path (`/` as `_`) and sits in the `paths/` folder of its operations' tag.
 */
export function checkLayout(openapiDir: string): string[] {
  const rootFile = join(openapiDir, 'openapi.yaml');
  const problems: string[] = [];
  const reached = reachableFiles(rootFile);
  const files = yamlFiles(openapiDir).filter((f) => f !== rootFile && !NOT_FRAGMENTS.has(relative(openapiDir, f)));
  for (const file of files) {
    const rel = relative(openapiDir, file);
    if (!reached.has(file) && !rel.startsWith(`${SHARED}/`))
      problems.push(`${rel}: not referenced from openapi.yaml (orphan fragment)`);
  }

  const owners = new Map<string, string>();
  for (const file of files) {
    const rel = relative(openapiDir, file);
    const kind = basename(dirname(file));
    if (!COMPONENT_KINDS.includes(kind)) continue;
    if (RESERVED_COMPONENT_NAMES.has(basename(file, '.yaml')))
      problems.push(
        `${rel}: "${basename(file, '.yaml')}" would shadow the global of that name in the generated TypeScript; choose another name`,
      );
    const key = `${kind}/${basename(file)}`;
    const owner = owners.get(key);
    if (owner) problems.push(`${rel}: component file name also used by ${owner}; the bundle would rename one of them`);
    else owners.set(key, rel);
  }

  const root = YAML.parse(readFileSync(rootFile, 'utf8')) as { paths?: Record<string, { $ref?: string }> };
  for (const [path, item] of Object.entries(root.paths ?? {})) {
    if (!item.$ref) {
      problems.push(`paths["${path}"]: write the path item in its own file and $ref it`);
      continue;
    }
    const wantedName = `${path.slice(1).replace(/\//g, '_')}.yaml`;
    const [tag, folder, name] = item.$ref.split('/');
    if (folder !== 'paths' || name !== wantedName) {
      problems.push(`paths["${path}"]: expected <tag>/paths/${wantedName}, found ${item.$ref}`);
      continue;
    }
    const pathItem = YAML.parse(readFileSync(join(openapiDir, item.$ref), 'utf8')) as Record<
      string,
      { tags?: string[] }
    >;
    for (const [method, operation] of Object.entries(pathItem)) {
      if (method === 'parameters' || !operation?.tags) continue;
      if (!operation.tags.includes(tag!))
        problems.push(`${item.$ref}: ${method} is tagged ${operation.tags.join(', ')} but lives in ${tag}/`);
    }
  }
  return problems;
}
