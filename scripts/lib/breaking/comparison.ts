/** What every comparing function shares: the two documents, the differences found so far, and the recursion guard. */
import type { OpenApiDocument } from '../../../generators/lib/openapi.ts';
import { follow } from '../../../packages/server/src/openapi-model.ts';

export type Severity = 'breaking' | 'compatible';
export interface Difference {
  severity: Severity;
  /** A stable rule name, e.g. `response-field-no-longer-required`. */
  rule: string;
  /** Where: `GET /projects/{id}/jobs › 200 application/json › [].status`. */
  location: string;
  detail?: string;
}

export type Json = Record<string, unknown>;
export type Direction = 'request' | 'response';

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** One of the two documents compared. */
export class Side {
  constructor(readonly doc: OpenApiDocument) {}
  /** Follows `$ref`s; returns the target (with the references' sibling keywords) and the last reference followed. */
  resolve(value: unknown): { node: unknown; ref?: string } {
    const { target, siblings, ref } = follow(this.doc, value);
    return { node: Object.keys(siblings).length > 0 && isObject(target) ? { ...target, ...siblings } : target, ref };
  }
  get<T>(value: unknown): T {
    return this.resolve(value).node as T;
  }
}

export class Comparison {
  readonly differences: Difference[] = [];
  readonly before: Side;
  readonly after: Side;
  /** Pairs of references being compared further up (only references can recurse). */
  readonly visiting = new Set<string>();

  constructor(before: OpenApiDocument, after: OpenApiDocument) {
    this.before = new Side(before);
    this.after = new Side(after);
  }

  add(severity: Severity, rule: string, location: string, detail?: string) {
    this.differences.push({ severity, rule, location, ...(detail ? { detail } : {}) });
  }

  /** Adds a difference whose severity and rule depend on a condition: `[rule if true, rule if false]`. */
  addEither(breaking: boolean, rules: readonly [string, string], location: string, detail?: string) {
    this.add(breaking ? 'breaking' : 'compatible', breaking ? rules[0] : rules[1], location, detail);
  }
}
