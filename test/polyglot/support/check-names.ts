/** The checks of the tier and what a check's run gives: the names drivers.ts and checks.ts share. */

/** What each check means (README.md lists them). */
export const CHECKS = {
  generate: 'generates without error',
  compile: 'its output compiles (Python: installs with pip and imports)',
  mypy: 'mypy --strict passes on the generated package',
  required: 'MergeRequest and Job keep their required fields: a body missing one is refused',
  int64: 'ids are 64-bit',
  nullable: 'nullable fields accept null, non-null ones refuse it',
  enums: 'enums keep their values',
  examples: 'every documented success example (at least 30 operations) parses into the generated models',
  'jobs-path-encoded': 'lists the jobs of my-group/my-project, sent as my-group%2Fmy-project',
  'create-merge-request': 'creates a merge request',
  'page-merge-requests': 'pages through the merge-request list and finds it',
  merge: 'merges it',
  'conflict-error': "reads a 409 as the language's error type",
  operations: 'generates at least 130 of the 141 operations',
  'project-name': 'names the component Project `Project`',
} as const;
export type Check = keyof typeof CHECKS;

/** What a driver says of one check. */
export interface Result {
  ok: boolean;
  detail: string;
}
