/** What the document holds beside its operations: component schemas, examples, and its top-level fields. */
import { type Comparison, type Json, same } from './comparison.ts';

/** A component schema is an exported type alias of the generated packages: removing it breaks their users. */
export function compareComponents(c: Comparison) {
  const before = (c.before.doc.components?.schemas ?? {}) as Json;
  const after = (c.after.doc.components?.schemas ?? {}) as Json;
  for (const name of Object.keys(before)) {
    if (!(name in after))
      c.add(
        'breaking',
        'component-schema-removed',
        `components.schemas.${name}`,
        'the generated type alias disappears',
      );
  }
  for (const name of Object.keys(after))
    if (!(name in before)) c.add('compatible', 'component-schema-added', `components.schemas.${name}`);
  // Examples document; operations reach them by reference, so their changes are counted here.
  const oldExamples = (c.before.doc.components?.examples ?? {}) as Json;
  const newExamples = (c.after.doc.components?.examples ?? {}) as Json;
  for (const name of new Set([...Object.keys(oldExamples), ...Object.keys(newExamples)])) {
    if (!same(oldExamples[name], newExamples[name]))
      c.add('compatible', 'example-changed', `components.examples.${name}`);
  }
}

/** The document's own fields: texts and settings every operation shares. */
export function compareDocumentFields(c: Comparison) {
  for (const key of ['info', 'servers', 'tags', 'security', 'externalDocs']) {
    if (!same(c.before.doc[key], c.after.doc[key])) c.add('compatible', `${key}-changed`, key);
  }
}
