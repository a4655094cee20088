/**
 * The Service's rule for a repository file path a write names: its `file_path` validator refuses `.` and `..` as a
 * component, an absolute path and a newline (`Gitlab::PathTraversal`, "should be a valid file path"), and git refuses
 * to store what it cannot hold in a tree: an empty component (`a//b`, a trailing `/`), a backslash (`core.protectNTFS`),
 * NUL, and a `.git` component.
 */
export const INVALID_FILE_PATH = 'file_path should be a valid file path';

/** The path parameter that names a repository file in the API's file writes. */
export const FILE_PATH_PARAMETER = 'file_path';

const REFUSED_CHARACTERS = /[\\\0\n]/;

/** Whether git can store a file at this path and the Service's validator lets it through. */
export function isValidFilePath(path: string): boolean {
  if (path === '' || REFUSED_CHARACTERS.test(path)) return false;
  for (const component of path.split('/'))
    if (component === '' || component === '.' || component === '..' || component.toLowerCase() === '.git') return false;
  return true;
}

/** The refusal of a write whose `file_path` git cannot store, as the API's problem; undefined when it is valid. */
export function filePathProblem(
  method: string,
  params: Record<string, unknown>,
): { in: string; field: string; problem: string } | undefined {
  if (method === 'GET' || method === 'HEAD') return undefined;
  const path = params[FILE_PATH_PARAMETER];
  if (typeof path !== 'string' || isValidFilePath(path)) return undefined;
  return { in: 'params', field: FILE_PATH_PARAMETER, problem: INVALID_FILE_PATH };
}
