/**
 * The generators of the polyglot tier: each with the rendition it reads best and the command a team runs, exactly as
 * README.md ("Generate your own code") and test/polyglot/README.md show it. The tier runs these commands from the
 * repository root on what @service-api/openapi publishes (node_modules/@service-api/openapi/dist/…), the output folder
 * replaced by its own; test/polyglot/readme.test.ts checks that both READMEs show these very commands.
 */
import { join } from 'node:path';
import { GENERATOR_JAR, GO_BIN, PINS, VENV } from './tools.ts';

export type Language = 'java' | 'kotlin' | 'go' | 'python';

/** The published document, as a team that installed @service-api/openapi finds it. */
export const PUBLISHED = {
  '3.1': 'node_modules/@service-api/openapi/dist/openapi.json',
  '3.0': 'node_modules/@service-api/openapi/dist/3.0/openapi.json',
} as const;

/** Where a command's output goes: `OUT` in the README's commands, the generator's folder in the tier. */
export const OUT_TOKEN = 'OUT';
/** The tier's ogen configuration, `ogen.yml` in the README (test/polyglot/ogen.yml). */
export const OGEN_CONFIG = 'test/polyglot/ogen.yml';

export interface Generator {
  /** The tier's name for it: test file `<name>.test.ts`, expected failures, output folder. */
  name: string;
  language: Language;
  rendition: '3.1' | '3.0';
  /** The program as the README names it, and as the tier runs it (installed from pins.json). */
  program: { readme: string; tier: string[] };
  /** The arguments; OUT stands for the output folder. */
  args: string[];
  /** Options that are not defaults, each with why a team sets it (README). */
  options: string[];
}

const OPENAPI_GENERATOR = {
  readme: `java -jar openapi-generator-cli-${PINS['openapi-generator-cli']}.jar`,
  tier: ['java', '-jar', GENERATOR_JAR],
};
const openapiGenerator = (
  language: Language,
  options: string[] = [],
  extra: string[] = [],
  rendition: '3.1' | '3.0' = '3.0',
): Generator => ({
  name: `openapi-generator-${language}`,
  language,
  rendition,
  program: OPENAPI_GENERATOR,
  args: ['generate', '-g', language, '-i', PUBLISHED[rendition], '-o', OUT_TOKEN, ...extra],
  options,
});

export const GENERATORS: Generator[] = [
  openapiGenerator(
    'java',
    [
      "3.1, and `--schema-mappings` of the three product-analytics query schemas to `java.lang.Object`: the generator writes no Java for `ProductAnalyticsOrder` (an `anyOf` of a map and an array of pairs, openapi-generator#12911), and a model that holds a mapped schema calls `Object.validateJsonElement`; the query body is then any JSON value. On 3.0 the boolean enums of the rules' `not` members do not compile either (openapi-generator#9005). `--schema-mappings` is a documented option of every openapi-generator generator",
    ],
    [
      '--schema-mappings',
      'ProductAnalyticsOrder=java.lang.Object,ProductAnalyticsQuery=java.lang.Object,ProductAnalyticsQueryRequest=java.lang.Object',
    ],
    '3.1',
  ),
  openapiGenerator(
    'kotlin',
    [
      "`enumPropertyNaming=UPPERCASE`: an enum value `name` (the `order_by` parameters) is otherwise a constant `name` that clashes with Kotlin's own `Enum.name` and the client does not compile (documented option of the `kotlin` generator)",
    ],
    ['--additional-properties=enumPropertyNaming=UPPERCASE'],
  ),
  openapiGenerator(
    'go',
    [
      '`enumClassPrefix=true`: enum values that several enums share (`created`, `running`, … of job and pipeline statuses) are otherwise declared twice and the package does not build (documented option of the `go` generator)',
    ],
    ['--additional-properties=enumClassPrefix=true'],
  ),
  openapiGenerator('python'),
  {
    name: 'oapi-codegen',
    language: 'go',
    rendition: '3.0',
    program: { readme: 'oapi-codegen', tier: [join(GO_BIN, 'oapi-codegen')] },
    args: [
      '-generate',
      'types,client',
      '-package',
      'serviceapi',
      '-o',
      `${OUT_TOKEN}/serviceapi/client.gen.go`,
      PUBLISHED['3.0'],
    ],
    options: ['`-generate types,client`: a client needs no server interface (the default adds an Echo server)'],
  },
  {
    name: 'ogen',
    language: 'go',
    rendition: '3.1',
    program: { readme: 'ogen', tier: [join(GO_BIN, 'ogen')] },
    args: [
      '--config',
      OGEN_CONFIG,
      '--target',
      `${OUT_TOKEN}/serviceapi`,
      '--package',
      'serviceapi',
      '--clean',
      PUBLISHED['3.1'],
    ],
    options: [
      '`ogen.yml` with `generator: ignore_not_implemented: ["all"]`: without it ogen generates nothing when one operation uses a feature it lacks; with it, it skips those operations and says which',
    ],
  },
  {
    name: 'openapi-python-client',
    language: 'python',
    rendition: '3.1',
    program: { readme: 'openapi-python-client', tier: [join(VENV, 'bin', 'openapi-python-client')] },
    args: ['generate', '--path', PUBLISHED['3.1'], '--output-path', OUT_TOKEN, '--overwrite'],
    options: [],
  },
  {
    name: 'datamodel-code-generator',
    language: 'python',
    rendition: '3.1',
    program: { readme: 'datamodel-codegen', tier: [join(VENV, 'bin', 'datamodel-codegen')] },
    args: [
      '--input',
      PUBLISHED['3.1'],
      '--input-file-type',
      'openapi',
      '--output-model-type',
      'pydantic_v2.BaseModel',
      '--use-annotated',
      '--set-default-enum-member',
      '--output',
      `${OUT_TOKEN}/service_api_models.py`,
    ],
    options: [
      '`--output-model-type pydantic_v2.BaseModel`: Pydantic 2 models',
      '`--use-annotated --set-default-enum-member`: constraints as `Annotated[…, Field(…)]` and enum defaults as members, without which `mypy --strict` refuses the models (`conint(…)` in a type, a string default for an enum field)',
    ],
  },
];

export const generatorNamed = (name: string): Generator => {
  const found = GENERATORS.find((generator) => generator.name === name);
  if (!found) throw new Error(`no generator ${name} in test/polyglot/support/generators.ts`);
  return found;
};

/** The command as the READMEs show it. */
export const readmeCommand = (generator: Generator) => [generator.program.readme, ...generator.args].join(' ');

/** The command as the tier runs it: the installed program, OUT replaced by `out`. */
export function tierCommand(generator: Generator, out: string): string[] {
  return [...generator.program.tier, ...generator.args.map((arg) => arg.replaceAll(OUT_TOKEN, out))];
}

/** The one generator per language the repository's README shows ("Generate your own code"). */
export const README_GENERATORS = [
  'openapi-generator-java',
  'openapi-generator-kotlin',
  'openapi-generator-go',
  'openapi-python-client',
] as const;
