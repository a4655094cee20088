/**
 * Seed quotes for `openapi/evidence.yaml`: for each record of the seed inventory, the words of the seed that list each
 * of its fields (a table row, or the item of a field list with the type given beside it). `npm run evidence --
 * --from-seeds` adds the records and fields the file lacks; entries already there are kept as they are.
 */
import type { EvidenceSource, FieldEvidence } from './evidence.ts';

interface InventoryRecord {
  name: string;
  part: number;
  section: string;
  fields: { name: string; type?: string | null; nullable?: boolean }[];
}

/** The text of every section numbered `section` (a seed may number two sections alike) of one seed part. */
export function sectionText(seed: string, section: string): string {
  const lines = seed.split('\n');
  const out: string[] = [];
  let inside = false;
  for (const line of lines) {
    const heading = /^(#{2,4}) (\d+(?:\.\d+)*)\b/.exec(line);
    if (heading) inside = heading[2] === section;
    else if (inside) out.push(line);
  }
  return out.join('\n');
}

/** Splits a list at commas outside brackets and parentheses. */
function topLevelItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if ('([{'.includes(char)) depth += 1;
    if (')]}'.includes(char)) depth -= 1;
    if ((char === ',' || char === ';') && depth === 0) {
      items.push(current.trim());
      current = '';
    } else current += char;
  }
  items.push(current.trim());
  return items.filter(Boolean);
}

const word = (field: string) =>
  new RegExp(`(^|[^A-Za-z0-9_])${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_]|$)`);

/** The seed's words for one field of a section: its table row, or its list item (with a `[type]` given after a run). */
export function quoteFor(text: string, field: string): string | undefined {
  const pattern = word(field);
  const lines = text.split('\n').filter((line) => pattern.test(line));
  // A table row that names the field in its first cell, before any other line that mentions it.
  const row = lines.find((line) => line.trim().startsWith('|') && pattern.test(line.split('|')[1] ?? ''));
  if (row) return row.trim();
  for (const line of lines) {
    if (line.trim().startsWith('|')) continue;
    // Lists typed by runs ("a, b [strings]") quote the run; others quote the item.
    const runs = line.includes('[') ? line.split(/(?<=\]),\s*/) : topLevelItems(line);
    const hit = runs.find((item) => pattern.test(item));
    if (hit) return hit.length > 200 ? `${hit.slice(0, 197)}…` : hit;
  }
  return lines.find((line) => line.trim().startsWith('|'))?.trim();
}

/** The quote for a field of a nested record (`Job.commit`): the words that list its parent field, which name it. */
function nestedQuote(text: string, path: string[], field: string): string | undefined {
  for (let i = path.length - 1; i >= 0; i -= 1) {
    const quote = quoteFor(text, path[i]!);
    if (quote && word(field).test(quote)) return quote;
  }
  return quoteFor(text, field);
}

/** The source with every inventory record and field it lacks, quoted from the seeds (`seeds[part - 1]`). */
export function withSeedQuotes(source: EvidenceSource, inventory: InventoryRecord[], seeds: string[]): EvidenceSource {
  const records = { ...source.records };
  for (const resource of inventory) {
    if (resource.fields.length === 0) continue;
    const text = sectionText(seeds[resource.part - 1] ?? '', resource.section);
    const record = { seed: `Part ${resource.part} §${resource.section}`, ...records[resource.name] };
    const fields: Record<string, FieldEvidence> = { ...record.fields };
    const path = resource.name.split('.').slice(1);
    for (const { name, type, nullable } of resource.fields) {
      if (fields[name] !== undefined) continue;
      const quote = path.length > 0 ? nestedQuote(text, path, name) : quoteFor(text, name);
      if (!quote) continue;
      // A type the seed gives without "or null" is evidence that the field is never null.
      fields[name] = type && nullable !== true && !/or null/.test(quote) ? { seed: quote, type } : quote;
    }
    records[resource.name] = { ...record, fields };
  }
  return { ...source, records };
}
