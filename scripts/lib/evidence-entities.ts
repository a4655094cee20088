/**
 * The Service's entities as evidence: a Grape entity exposes a field unconditionally (`expose :name`) or only under a
 * condition (`expose :name, if: …` / `unless: …`), and a conditional field may not be required. `npm run evidence --
 * --from-entities DIR` reads, for each record of `openapi/evidence.yaml` that names its entity (`service:`), that file
 * under DIR (a checkout of the Service's source) and records each conditional exposure on the field it names.
 */
import type { EvidenceSource, FieldEvidence } from './evidence.ts';

export interface Exposure {
  /** The name the answer carries (`as:` when given). */
  field: string;
  line: number;
  conditional: boolean;
  text: string;
}

/** The exposures of an entity's source, one per exposed name, with the line and whether a condition guards it. */
export function exposures(source: string): Exposure[] {
  const out: Exposure[] = [];
  const lines = source.split('\n');
  lines.forEach((line, index) => {
    const match = /^\s*expose\(?\s*((?::[\w?]+\s*,\s*)*:[\w?]+)(.*)$/.exec(line);
    if (!match) return;
    // A call may continue on the following lines (options after a trailing comma).
    let statement = line.trim();
    for (let next = index + 1; /,\s*$/.test(statement) && next < lines.length; next += 1)
      statement += ` ${lines[next]!.trim()}`;
    const names = match[1]!.split(',').map((n) => n.trim().replace(/^:/, '').replace(/\?$/, ''));
    const alias = /\bas:\s*:(\w+)/.exec(statement)?.[1];
    const conditional = /\b(if|unless):/.test(statement);
    for (const name of alias && names.length === 1 ? [alias] : names)
      out.push({ field: name, line: index + 1, conditional, text: statement });
  });
  return out;
}

/** The source with a `conditional` entry for each field its records' entities expose only under a condition. */
export function withEntityConditions(
  source: EvidenceSource,
  read: (path: string) => string | undefined,
): EvidenceSource {
  const records = { ...source.records };
  for (const [name, record] of Object.entries(records)) {
    const path = record.service?.split(' ')[0];
    const text = path ? read(path) : undefined;
    if (!text) continue;
    const fields: Record<string, FieldEvidence> = { ...record.fields };
    for (const exposure of exposures(text).filter((e) => e.conditional)) {
      const conditional = `${path} line ${exposure.line}: ${exposure.text.slice(0, 160)}`;
      const old = fields[exposure.field];
      fields[exposure.field] = typeof old === 'string' ? { seed: old, conditional } : { ...(old ?? {}), conditional };
    }
    records[name] = { ...record, fields };
  }
  return { ...source, records };
}
