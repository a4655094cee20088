/** Identifiers the generated packages use, derived from tags, operationIds and schema names. */

/** `merge-requests` → `mergeRequests`, `list-project-jobs` → `listProjectJobs`. */
export function camelCase(words: string): string {
  const parts = words.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = parts
    .map((p, i) => (i === 0 ? p.charAt(0).toLowerCase() + p.slice(1) : p.charAt(0).toUpperCase() + p.slice(1)))
    .join('');
  return /^[0-9]/.test(joined) ? `_${joined}` : joined || '_';
}

/** `MergeRequest` → `MergeRequest`, `merge-request` → `MergeRequest`. */
export function pascalCase(words: string): string {
  const camel = camelCase(words);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** The group (from the tag) and method (from the part of the operationId after the last `/`) of an operation. */
export function methodNames(operationId: string, tag: string | undefined): { group: string; method: string } {
  const slash = operationId.lastIndexOf('/');
  const prefix = slash >= 0 ? operationId.slice(0, slash) : '';
  return { group: camelCase(tag ?? (prefix || 'default')), method: camelCase(operationId.slice(slash + 1)) };
}

/** A safe JavaScript identifier for any name (`jobs/list-project-jobs` → `jobs_list_project_jobs`). */
export function identifier(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_$]/g, '_');
  return /^[0-9]/.test(id) ? `_${id}` : id;
}
