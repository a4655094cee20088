import { expect, it } from 'vitest';
import { checkLayout } from '../scripts/lib/layout.ts';
import { tempTree } from './support/temp-tree.ts';

const tree = (files: Record<string, string>): string => tempTree('layout', files);

const root = (paths: string) => `openapi: 3.1.0\npaths:\n${paths}`;
const widgetPath =
  'get:\n  tags: [widgets]\n  responses:\n    "200":\n      content:\n        application/json:\n          schema:\n            $ref: ../schemas/Widget.yaml\n';

const cases: [string, Record<string, string>, string[]][] = [
  [
    'accepts a well-formed tree',
    {
      'openapi.yaml': root('  /widgets:\n    $ref: widgets/paths/widgets.yaml\n'),
      'widgets/paths/widgets.yaml': widgetPath,
      'widgets/schemas/Widget.yaml': 'type: object\n',
      'components/schemas/Unused.yaml': 'type: object\n',
    },
    [],
  ],
  [
    'reports an orphan domain fragment',
    {
      'openapi.yaml': root('  /widgets:\n    $ref: widgets/paths/widgets.yaml\n'),
      'widgets/paths/widgets.yaml': widgetPath,
      'widgets/schemas/Widget.yaml': 'type: object\n',
      'widgets/schemas/Gadget.yaml': 'type: object\n',
    },
    ['widgets/schemas/Gadget.yaml: not referenced from openapi.yaml (orphan fragment)'],
  ],
  [
    'reports a component file name used twice',
    {
      'openapi.yaml': root('  /widgets:\n    $ref: widgets/paths/widgets.yaml\n'),
      'widgets/paths/widgets.yaml': widgetPath,
      'widgets/schemas/Widget.yaml': 'type: object\n',
      'components/schemas/Widget.yaml': 'type: object\n',
    },
    [
      'widgets/schemas/Widget.yaml: component file name also used by components/schemas/Widget.yaml; the bundle would rename one of them',
    ],
  ],
  [
    'reports a path file not named for its path',
    {
      'openapi.yaml': root('  /widgets:\n    $ref: widgets/paths/all.yaml\n'),
      'widgets/paths/all.yaml': widgetPath,
      'widgets/schemas/Widget.yaml': 'type: object\n',
    },
    ['paths["/widgets"]: expected <tag>/paths/widgets.yaml, found widgets/paths/all.yaml'],
  ],
  [
    'reports a path file outside its tag folder',
    {
      'openapi.yaml': root('  /widgets:\n    $ref: gadgets/paths/widgets.yaml\n'),
      'gadgets/paths/widgets.yaml': widgetPath.replace('../schemas', '../../widgets/schemas'),
      'widgets/schemas/Widget.yaml': 'type: object\n',
    },
    ['gadgets/paths/widgets.yaml: get is tagged widgets but lives in gadgets/'],
  ],
  [
    'reports a component named like a platform global',
    {
      'openapi.yaml': root('  /widgets:\n    $ref: widgets/paths/widgets.yaml\n'),
      'widgets/paths/widgets.yaml': widgetPath.replace('Widget.yaml', 'Blob.yaml'),
      'widgets/schemas/Blob.yaml': 'type: object\n',
    },
    [
      'widgets/schemas/Blob.yaml: "Blob" would shadow the global of that name in the generated TypeScript; choose another name',
    ],
  ],
  [
    'reports an inline path item',
    { 'openapi.yaml': root('  /widgets:\n    get: {}\n') },
    ['paths["/widgets"]: write the path item in its own file and $ref it'],
  ],
];

it.each(cases)('%s', (_title, files, want) => {
  expect(checkLayout(tree(files))).toEqual(want);
});
