/**
 * The proxy's findings, bounded whatever the traffic: per operation the calls, the statuses and each distinct
 * disagreement with its count and where it was first seen. Past the caps, findings are still counted (in `dropped`),
 * never stored. Nothing here holds a value a client or the upstream sent: only names, paths, JSON types and statuses.
 */

/** What kind of disagreement between the traffic and the contract. */
export type Kind =
  | 'undocumented-operation'
  | 'undocumented-parameter'
  | 'tolerated-form'
  | 'refused-request'
  | 'undocumented-status'
  | 'body-schema'
  | 'missing-header'
  | 'absent-optional-header'
  | 'undocumented-content-type'
  /** The upstream failed (no answer, a broken connection) or sent what HTTP cannot pass on (a status outside 100–599). */
  | 'upstream-failure';

export interface Disagreement {
  kind: Kind;
  /** What disagrees, without any value: `/0/id must be integer (got string)`, `query parameter foo`. */
  detail: string;
}

/** A body the proxy forwarded without checking, and why (too large, compressed in an unknown way). */
export interface Unchecked {
  reason: string;
}

export interface ReportLimits {
  /** Distinct operations kept (documented or not); the rest are counted under `dropped.operations`. */
  operations: number;
  /** Distinct disagreements kept per operation and kind; past it, each kind counts what it left out (`more`). */
  perKind: number;
  /** Distinct disagreements kept in all. */
  disagreements: number;
}

export const defaultReportLimits: ReportLimits = { operations: 1000, perKind: 100, disagreements: 5000 };

interface Finding {
  kind: Kind;
  detail: string;
  count: number;
  /** The first example's location: method and path, never the query string. */
  first: string;
}

interface OperationEntry {
  calls: number;
  statuses: Map<number, number>;
  findings: Map<string, Finding>;
  /** Distinct findings stored, per kind. */
  kinds: Map<Kind, number>;
  unchecked: Map<string, number>;
  /** Disagreements counted but not stored (past `perKind` or `disagreements`), per kind. */
  more: Map<Kind, number>;
}

export interface ReportJson {
  upstream: string;
  since: string;
  requests: number;
  disagreements: number;
  operations: Record<
    string,
    {
      calls: number;
      statuses: Record<string, number>;
      disagreements: Finding[];
      unchecked?: Record<string, number>;
      /** Per kind, the disagreements left out past the caps (counted, not listed). */
      more?: Partial<Record<Kind, number>>;
    }
  >;
  /** Calls and disagreements of operations past the cap on distinct operations: counted, not stored. */
  dropped: { calls: number; disagreements: number };
  /** Answers whose `Link` or `Location` named the upstream and were rewritten to the proxy's origin. */
  rewrites: { link: number; location: number };
}

export class Report {
  private readonly operations = new Map<string, OperationEntry>();
  private stored = 0;
  private requests = 0;
  private total = 0;
  private droppedDisagreements = 0;
  private droppedCalls = 0;
  private readonly since = new Date().toISOString();
  private readonly rewrites = { link: 0, location: 0 };

  constructor(
    private readonly upstream: string,
    private readonly limits: ReportLimits = defaultReportLimits,
  ) {}

  private entry(operation: string, create: boolean): OperationEntry | undefined {
    let entry = this.operations.get(operation);
    if (entry || !create) return entry;
    if (this.operations.size >= this.limits.operations) return undefined;
    entry = {
      calls: 0,
      statuses: new Map(),
      findings: new Map(),
      kinds: new Map(),
      unchecked: new Map(),
      more: new Map(),
    };
    this.operations.set(operation, entry);
    return entry;
  }

  /** A request answered with `status` (or `undefined` when no answer came). */
  call(operation: string, status: number | undefined): void {
    this.requests++;
    const entry = this.entry(operation, true);
    if (!entry) {
      this.droppedCalls++;
      return;
    }
    entry.calls++;
    if (status !== undefined) entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
  }

  /** Records a disagreement; returns whether it is new (its first example). */
  disagree(operation: string, disagreement: Disagreement, location: string): boolean {
    this.total++;
    const entry = this.entry(operation, true);
    if (!entry) {
      this.droppedDisagreements++;
      return false;
    }
    const key = `${disagreement.kind} ${disagreement.detail}`;
    const found = entry.findings.get(key);
    if (found) {
      found.count++;
      return false;
    }
    const kind = disagreement.kind;
    const ofKind = entry.kinds.get(kind) ?? 0;
    if (ofKind >= this.limits.perKind || this.stored >= this.limits.disagreements) {
      entry.more.set(kind, (entry.more.get(kind) ?? 0) + 1);
      return false;
    }
    this.stored++;
    entry.kinds.set(kind, ofKind + 1);
    entry.findings.set(key, {
      kind: disagreement.kind,
      detail: disagreement.detail,
      count: 1,
      first: location.length > 200 ? `${location.slice(0, 200)}…` : location,
    });
    return true;
  }

  /** An answer's `Link` or `Location` rewritten from the upstream's origin to the proxy's. */
  rewrote(header: 'link' | 'location'): void {
    this.rewrites[header]++;
  }

  unchecked(operation: string, reason: string): void {
    const entry = this.entry(operation, true);
    // Reasons are a handful of fixed texts: no cap needed.
    if (entry) entry.unchecked.set(reason, (entry.unchecked.get(reason) ?? 0) + 1);
  }

  /** The report, sorted so that two reports diff line by line. */
  toJSON(): ReportJson {
    const operations: ReportJson['operations'] = {};
    for (const name of [...this.operations.keys()].sort()) {
      const entry = this.operations.get(name)!;
      const findings = [...entry.findings.values()].sort((a, b) =>
        a.kind === b.kind ? (a.detail < b.detail ? -1 : 1) : a.kind < b.kind ? -1 : 1,
      );
      operations[name] = {
        calls: entry.calls,
        statuses: Object.fromEntries(
          [...entry.statuses].sort((a, b) => a[0] - b[0]).map(([status, count]) => [String(status), count]),
        ),
        disagreements: findings.map((f) => ({ ...f })),
        ...(entry.unchecked.size > 0 ? { unchecked: Object.fromEntries(entry.unchecked) } : {}),
        ...(entry.more.size > 0 ? { more: Object.fromEntries([...entry.more].sort()) } : {}),
      };
    }
    return {
      upstream: this.upstream,
      since: this.since,
      requests: this.requests,
      disagreements: this.total,
      operations,
      dropped: { calls: this.droppedCalls, disagreements: this.droppedDisagreements },
      rewrites: { ...this.rewrites },
    };
  }
}
