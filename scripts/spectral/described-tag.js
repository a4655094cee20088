/** An operation has exactly one tag, and that tag is declared at the top level with a description. */
export default function describedTag(operation, _options, context) {
  const tags = operation?.tags ?? [];
  if (tags.length !== 1)
    return [{ message: `Operation must have exactly one tag, has ${tags.length}`, path: ['tags'] }];
  const declared = (context?.document?.data?.tags ?? []).find((t) => t.name === tags[0]);
  if (!declared) return [{ message: `Tag "${tags[0]}" is not declared in the top-level tags`, path: ['tags', 0] }];
  if (!declared.description?.trim()) return [{ message: `Tag "${tags[0]}" has no description`, path: ['tags', 0] }];
  return [];
}
