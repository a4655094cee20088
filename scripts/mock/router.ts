/**
 * Matches a request path against the document's path templates, segment by segment, in time linear in the path.
 * A literal segment wins over a template segment (`/projects/{id}/jobs` vs `/projects/{id}/{x}`), as OpenAPI says.
 * Parameter values are URL-decoded once; a malformed escape (`%FF`, `%`) is reported, never thrown.
 */
export type RouteMatch<T> =
  | { kind: 'found'; value: T; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' }
  | { kind: 'bad-escape'; segment: string };

interface Node<T> {
  literals: Map<string, Node<T>>;
  /** Segments with a template: `{id}` or `archive.{format}`. */
  templates: { pattern: RegExp; node: Node<T> }[];
  /** Method → value and the names of the template's parameters, in order (sibling templates may name them differently). */
  methods: Map<string, { value: T; names: string[] }>;
}

const newNode = <T>(): Node<T> => ({ literals: new Map(), templates: [], methods: new Map() });

function segmentPattern(segment: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = segment.replace(/\{([^}]+)\}|([^{]+)/g, (_, name: string | undefined, literal: string | undefined) => {
    if (name) {
      names.push(name);
      return '([^/]+?)';
    }
    return literal!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return { pattern: new RegExp(`^${source}$`), names };
}

export class Router<T> {
  private readonly root = newNode<T>();

  add(method: string, template: string, value: T): void {
    let node = this.root;
    const names: string[] = [];
    for (const segment of template.split('/').slice(1)) {
      if (!segment.includes('{')) {
        let next = node.literals.get(segment);
        if (!next) node.literals.set(segment, (next = newNode()));
        node = next;
        continue;
      }
      const { pattern, names: segmentNames } = segmentPattern(segment);
      names.push(...segmentNames);
      let entry = node.templates.find((t) => t.pattern.source === pattern.source);
      if (!entry) {
        entry = { pattern, node: newNode() };
        node.templates.push(entry);
        // Templates with a literal part (`archive.{format}`) are more specific than a bare `{id}`.
        node.templates.sort((a, b) => b.pattern.source.length - a.pattern.source.length);
      }
      node = entry.node;
    }
    node.methods.set(method.toUpperCase(), { value, names });
  }

  /** `rawPath` is the path as sent, still percent-encoded, relative to the API root (`/projects/42/jobs`). */
  match(method: string, rawPath: string): RouteMatch<T> {
    const segments = rawPath.split('/').slice(1);
    const found = this.walk(this.root, segments, 0, []);
    if (!found) return { kind: 'not-found' };
    const { node, captures } = found;
    const upper = method.toUpperCase();
    const target = node.methods.get(upper) ?? (upper === 'HEAD' ? node.methods.get('GET') : undefined);
    if (target === undefined) return { kind: 'method-not-allowed', allow: allowOf(node) };
    const params: Record<string, string> = {};
    for (const [i, raw] of captures.entries()) {
      try {
        params[target.names[i]!] = decodeURIComponent(raw);
      } catch {
        return { kind: 'bad-escape', segment: raw };
      }
    }
    return { kind: 'found', value: target.value, params };
  }

  /** The methods a path accepts, or undefined when no template matches it. */
  allowed(rawPath: string): string[] | undefined {
    const found = this.walk(this.root, rawPath.split('/').slice(1), 0, []);
    return found ? allowOf(found.node) : undefined;
  }

  private walk(node: Node<T>, segments: string[], index: number, captures: string[]): { node: Node<T>; captures: string[] } | undefined {
    if (index === segments.length) return node.methods.size > 0 ? { node, captures } : undefined;
    const segment = segments[index]!;
    const literal = node.literals.get(segment);
    if (literal) {
      const found = this.walk(literal, segments, index + 1, captures);
      if (found) return found;
    }
    if (segment === '') return undefined;
    for (const template of node.templates) {
      const match = template.pattern.exec(segment);
      if (!match) continue;
      const next = [...captures, ...match.slice(1)];
      const found = this.walk(template.node, segments, index + 1, next);
      if (found) return found;
    }
    return undefined;
  }
}

function allowOf<T>(node: Node<T>): string[] {
  const methods = [...node.methods.keys()];
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  return [...methods, 'OPTIONS'];
}
