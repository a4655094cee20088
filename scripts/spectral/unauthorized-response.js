/**
 * An operation that accepts credentials documents 401 (Part 1 §5 rule 3: missing or invalid credentials).
 * Anonymous access (`{}`) does not exempt it: invalid credentials still get 401.
 */
export default function unauthorizedResponse(operation, _options, context) {
  const security = operation?.security ?? context?.document?.data?.security ?? [];
  const authenticated = security.some((requirement) => Object.keys(requirement).length > 0);
  if (authenticated && !operation?.responses?.['401'])
    return [{ message: 'Authenticated operation must document a 401 response', path: ['responses'] }];
  return [];
}
