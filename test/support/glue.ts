/**
 * The glue in a consumer's source, counted on its syntax tree: what a team writes when a package does not fit its stack.
 * - casts: `x as T` (not `as const`), `<T>x` and the non-null assertion `x!`;
 * - any: the `any` type written anywhere;
 * - adapters: functions the team names (declarations, and functions assigned to a variable or a class member), and the
 *   options the packages' helpers exist to provide, written by hand (`queryFn: () => …`, `queryKey: ['mrs']`,
 *   `'~standard'` …).
 * Callbacks passed inline to a library (`onSuccess: () => …`, an event listener) are the library's API, not glue.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../../scripts/lib/paths.ts';

/** A team's merge-request flow on TanStack Query, MSW and a Standard Schema form library: the pack-and-install test runs it. */
export const TEAM_FLOW = join(ROOT, 'test', 'fixtures', 'consumers', 'team-mr-flow.ts');

export interface Glue {
  casts: string[];
  any: string[];
  adapters: string[];
}

/** The options that the client's query helpers and the validators' Standard Schema provide. */
const PROVIDED = new Set([
  'queryFn',
  'queryKey',
  'mutationFn',
  'mutationKey',
  'getNextPageParam',
  'initialPageParam',
  '~standard',
]);

const isFunction = (node: ts.Node | undefined): boolean =>
  node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));

export function glueIn(source: string, fileName = 'consumer.ts'): Glue {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const glue: Glue = { casts: [], any: [], adapters: [] };
  const at = (node: ts.Node) => `${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`;
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) && !(ts.isTypeReferenceNode(node.type) && node.type.getText() === 'const'))
      glue.casts.push(at(node));
    if (ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) glue.casts.push(at(node));
    if (node.kind === ts.SyntaxKind.AnyKeyword) glue.any.push(at(node));
    if (
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isClassDeclaration(node) ||
      ((ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node)) && isFunction(node.initializer))
    )
      glue.adapters.push(at(node));
    if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && handWritten(node))
      glue.adapters.push(at(node));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return glue;
}

/**
 * One of the provided options written by hand: a function or a literal (`queryFn: () => …`, `queryKey: ['mrs']`), not
 * a value taken from the helpers (`queryKey: helpers.operationKey` in a filter).
 */
function handWritten(node: ts.PropertyAssignment | ts.ShorthandPropertyAssignment): boolean {
  if (!PROVIDED.has(nameOf(node.name))) return false;
  if (ts.isShorthandPropertyAssignment(node) || nameOf(node.name) === '~standard') return true;
  const value = node.initializer;
  return isFunction(value) || ts.isArrayLiteralExpression(value) || ts.isObjectLiteralExpression(value);
}

function nameOf(name: ts.PropertyName): string {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : name.getText();
}
