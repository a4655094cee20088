/**
 * operationId is `<tag>/<verb>[-<word>…]` in lower-case kebab case, where `<tag>` is the operation's tag and
 * `<verb>` one of the allowed verbs: `jobs/list-project-jobs`, `merge-requests/merge`.
 */
export default function operationIdGrammar(operation, options) {
  const verbs = options?.verbs ?? [];
  const id = operation?.operationId;
  if (typeof id !== 'string') return [{ message: 'Operation has no operationId' }];
  const match = /^([a-z][a-z0-9]*(?:-[a-z0-9]+)*)\/([a-z][a-z0-9]*)((?:-[a-z0-9]+)*)$/.exec(id);
  if (!match)
    return [
      { message: `operationId "${id}" must read <tag>/<verb>-<words> in lower-case kebab case`, path: ['operationId'] },
    ];
  const [, prefix, verb] = match;
  const problems = [];
  const tag = operation.tags?.[0];
  if (tag && prefix !== tag)
    problems.push({ message: `operationId "${id}" must start with its tag "${tag}/"`, path: ['operationId'] });
  if (verbs.length > 0 && !verbs.includes(verb)) {
    problems.push({
      message: `operationId "${id}" starts with "${verb}", which is not an allowed verb (${verbs.join(', ')})`,
      path: ['operationId'],
    });
  }
  return problems;
}
