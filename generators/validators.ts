import { slashBanner } from './lib/banner.ts';
import { compilePackage } from './lib/compile.ts';
import type { GeneratedFile } from './lib/files.ts';
import { operationModels } from './lib/model.ts';
import { pascalCase } from './lib/naming.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { packageJson, packageReadme, type PackageSpec } from './lib/package.ts';
import { template } from './lib/templates.ts';
import { typesDeclarations, typesDependency, typesModule, typesPackageName } from './types.ts';
import { buildValidators, type ValidatorIndex } from './lib/ajv.ts';

export const folder = 'generated/validators';

const spec: PackageSpec = {
  folder,
  name: '@service-api/validators',
  description:
    'Ajv standalone validators of the Service HTTP API v4: type guards per schema, request and response validation',
  // The standalone code imports Ajv's runtime helpers and ajv-formats' formats, stable within their major versions.
  dependencies: { ajv: '^8.20.0', 'ajv-formats': '^3.0.1' },
  valueExport: 'validateResponse',
};

export const packageName = spec.name;

/** The last package built for each document, for the server package to compile against without building it again. */
const built = new WeakMap<OpenApiDocument, Promise<GeneratedFile[]>>();

/**
 * The validators package: Ajv standalone code (no schema compilation at run time) for every component schema,
 * every operation's request and every JSON response, with typed guards and lookups by operationId and status.
 */
export function generateValidators(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const files = buildPackage(doc);
  built.set(doc, files);
  return files;
}

/**
 * What a package that depends on this one needs to compile against it: its package.json and declarations, placed
 * under `<folder>/node_modules/@service-api/validators/` where the compiler's module resolution finds them.
 */
export async function validatorsDeclarationsFor(doc: OpenApiDocument, dependent: string): Promise<GeneratedFile[]> {
  // In the build the validators generator has just run on this document: reuse its output (one compilation).
  const files = await (built.get(doc) ?? generateValidators(doc));
  return files
    .filter(
      (f) => f.path === `${folder}/package.json` || (f.path.startsWith(`${folder}/dist/`) && f.path.endsWith('.d.ts')),
    )
    .map((f) => ({ ...f, path: f.path.replace(folder, `${dependent}/node_modules/${spec.name}`) }));
}

async function buildPackage(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const banner = slashBanner(doc, 'validators');
  const parts = await validatorParts(doc, folder, banner, 'index');
  const sources = [{ path: `${folder}/src/types.ts`, contents: typesModule(banner) }, ...parts.sources];
  return [
    packageJson(doc, { ...spec, dependencies: { ...spec.dependencies, ...typesDependency(doc) } }),
    packageReadme(doc, spec, 'validators', readme(parts.index)),
    ...sources,
    ...compilePackage(sources, banner, {
      declarations: parts.declarations,
      packages: { [typesPackageName]: await typesDeclarations(doc) },
    }),
    ...parts.dist,
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/**
 * The validators of a package (this one, or another that embeds them): `src/<module>.ts` and `src/validation.ts`
 * to compile, the `.d.ts` of the standalone modules for the compiler, and the files to write as they are: those `.d.ts`
 * in `src/` and, in `dist/`, the standalone `.js` with its `.d.ts`.
 * The sources import `./types.js`, which the package provides.
 */
export async function validatorParts(doc: OpenApiDocument, folder: string, banner: string, module: string) {
  const built = buildValidators(doc);
  const sources: GeneratedFile[] = [
    { path: `${folder}/src/validation.ts`, contents: banner + (await template('validators-runtime.ts')) },
    { path: `${folder}/src/formats.ts`, contents: banner + (await template('validators-formats.ts')) },
    { path: `${folder}/src/${module}.ts`, contents: banner + indexModule(doc, built.index) },
  ];
  const declarations = [
    { path: `${folder}/src/standalone.d.ts`, contents: banner + built.declarations('schemas') },
    { path: `${folder}/src/fast.d.ts`, contents: banner + built.declarations('fast') },
    { path: `${folder}/src/requests.d.ts`, contents: banner + built.declarations('requests') },
  ];
  const dist = [
    ...declarations,
    { path: `${folder}/dist/standalone.js`, contents: banner + built.schemasCode },
    { path: `${folder}/dist/fast.js`, contents: banner + built.fastCode },
    { path: `${folder}/dist/requests.js`, contents: banner + built.requestsCode },
    ...declarations.map((d) => ({ ...d, path: d.path.replace('/src/', '/dist/') })),
  ];
  return { index: built.index, sources, declarations, dist };
}

function indexModule(doc: OpenApiDocument, index: ValidatorIndex): string {
  const guards = new Map<string, string>();
  for (const name of Object.keys(index.schemas)) {
    const guard = `is${pascalCase(name)}`;
    if (guards.has(guard)) throw new Error(`Schemas ${guards.get(guard)} and ${name} both give the guard ${guard}`);
    guards.set(guard, name);
  }
  const q = JSON.stringify;
  const ops = operationModels(doc);
  // The fast twin of an exact validator where there is one, else the exact validator itself.
  const quick = (exportName: string) => (index.fast[exportName] ? `f.${index.fast[exportName]}` : `s.${exportName}`);
  const lines = [
    `import * as s from './standalone.js';`,
    `import * as f from './fast.js';`,
    `import * as r from './requests.js';`,
    `import { checkWith, formatRequestErrors, MAX_ERRORS, type ValidateFunction, type ValidationError, type ValidationResult } from './validation.js';`,
    `import type { components } from './types.js';`,
    ``,
    `export { formatErrors, formatRequestErrors, MAX_ERRORS } from './validation.js';`,
    `export type { ValidateFunction, ValidationError, ValidationResult } from './validation.js';`,
    `export type * from './types.js';`,
    ``,
    `export const specVersion = ${q(doc.info.version)};`,
    ``,
    `type Schemas = components['schemas'];`,
    `export type SchemaName = ${
      Object.keys(index.schemas)
        .map((n) => q(n))
        .join(' | ') || 'never'
    };`,
    ``,
    `/** Validators of the component schemas, by schema name. */`,
    `export const schemaValidators: Record<SchemaName, ValidateFunction> = {`,
    ...Object.entries(index.schemas).map(([name, fn]) => `  ${q(name)}: s.${fn},`),
    `};`,
    ``,
    `/** Fast validators (first failure, no messages) of the component schemas, by schema name; for guards. */`,
    `const schemaChecks: Record<SchemaName, ValidateFunction> = {`,
    ...Object.entries(index.schemas).map(([name, fn]) => `  ${q(name)}: ${quick(fn)},`),
    `};`,
    ``,
    ...[...guards].map(
      ([guard, name]) =>
        `/** Whether \`value\` is a valid \`${name}\` (stops at the first failure). */\nexport function ${guard}(value: unknown): value is Schemas[${q(name)}] {\n  return ${quick(index.schemas[name]!)}(value);\n}`,
    ),
    ``,
    `/** For each operationId, the statuses whose JSON body has a validator. */`,
    `export interface ResponseStatuses {`,
    ...Object.entries(index.responses).map(
      ([op, byStatus]) =>
        `  ${q(op)}: ${Object.keys(byStatus)
          .map((st) => q(st))
          .join(' | ')};`,
    ),
    `}`,
    ``,
    `/** Validators of JSON response bodies, by operationId and status. */`,
    `export const responseValidators: { [Op in keyof ResponseStatuses]: Record<ResponseStatuses[Op], ValidateFunction> } = {`,
    ...Object.entries(index.responses).map(
      ([op, byStatus]) =>
        `  ${q(op)}: { ${Object.entries(byStatus)
          .map(([st, fn]) => `${q(st)}: s.${fn}`)
          .join(', ')} },`,
    ),
    `};`,
    ``,
    `/** Fast validators of JSON response bodies, by operationId and status. */`,
    `const responseChecks: Record<string, Record<string, ValidateFunction>> = {`,
    ...Object.entries(index.responses).map(
      ([op, byStatus]) =>
        `  ${q(op)}: { ${Object.entries(byStatus)
          .map(([st, fn]) => `${q(st)}: ${quick(fn)}`)
          .join(', ')} },`,
    ),
    `};`,
    ``,
    `/** Fast validators of JSON request bodies, by operationId. */`,
    `const bodyChecks: Partial<Record<RequestOperationId, ValidateFunction>> = {`,
    ...Object.entries(index.bodies).map(([op, fn]) => `  ${q(op)}: ${quick(fn)},`),
    `};`,
    ``,
    `/** Exact validators of JSON request bodies, by operationId. */`,
    `export const bodyValidators: Partial<Record<RequestOperationId, ValidateFunction>> = {`,
    ...Object.entries(index.bodies).map(([op, fn]) => `  ${q(op)}: s.${fn},`),
    `};`,
    ``,
    `export type RequestOperationId = ${ops.map((o) => q(o.operationId)).join(' | ') || 'never'};`,
    ``,
    `/** The rules across the query parameters (\`x-query-schema\`) of the operations that state some, in order. */`,
    `const queryRules: Partial<Record<RequestOperationId, readonly string[]>> = {`,
    ...Object.entries(index.queryRules).map(([op, rules]) => `  ${q(op)}: ${q(rules)},`),
    `};`,
    ``,
    `/** Validators of whole requests \`{ params, query, headers, body }\`, by operationId (strings are coerced). */`,
    `export const requestValidators: Record<RequestOperationId, ValidateFunction> = {`,
    ...Object.entries(index.requests).map(([op, fn]) => `  ${q(op)}: r.${fn},`),
    `};`,
    ``,
    `/** The parts of a request as a server sees them: path parameters, query, headers (any case) and body. */`,
    `export interface RequestParts {`,
    `  params?: Record<string, unknown>;`,
    `  query?: Record<string, unknown>;`,
    `  headers?: Record<string, unknown>;`,
    `  body?: unknown;`,
    `}`,
    ``,
    `export interface RequestValidationResult extends ValidationResult {`,
    `  /** The request with query, path and header strings coerced to the documented types and header names in lower case. */`,
    `  value: { params: Record<string, unknown>; query: Record<string, unknown>; headers: Record<string, unknown>; body?: unknown };`,
    `  /** Each problem with the part (\`params\`, \`query\`, \`headers\`, \`body\`) and the field it concerns. */`,
    `  problems: { in: string; field: string; problem: string }[];`,
    `}`,
    ``,
    `/**`,
    ` * Validates a value against a component schema by name. A fast check answers valid values; the full error list`,
    ` * (at most MAX_ERRORS messages, then a count) is computed only for invalid ones.`,
    ` */`,
    `export function validateSchema(name: SchemaName, value: unknown): ValidationResult {`,
    `  const validate = schemaValidators[name];`,
    `  if (!validate) throw new Error(\`Unknown schema \${String(name)}\`);`,
    `  return checkWith(schemaChecks[name], validate, value);`,
    `}`,
    ``,
    `/** Validates a JSON response body of an operation; statuses without a JSON body have no validator. */`,
    `export function validateResponse<Op extends keyof ResponseStatuses>(operationId: Op, status: ResponseStatuses[Op] | number, body: unknown): ValidationResult {`,
    `  const byStatus = responseValidators[operationId] as Record<string, ValidateFunction> | undefined;`,
    `  if (!byStatus) throw new Error(\`Unknown operation \${String(operationId)}\`);`,
    `  const validate = byStatus[String(status)];`,
    `  if (!validate) throw new Error(\`Operation \${String(operationId)} documents no JSON body for status \${status}\`);`,
    `  return checkWith(responseChecks[operationId]![String(status)]!, validate, body);`,
    `}`,
    ``,
    `/** Validates a request of an operation; errors name the bad field (\`query parameter per_page must be <= 100\`). */`,
    `export function validateRequest(operationId: RequestOperationId, request: RequestParts): RequestValidationResult {`,
    `  const validate = requestValidators[operationId];`,
    `  if (!validate) throw new Error(\`Unknown operation \${String(operationId)}\`);`,
    `  const headers: Record<string, unknown> = {};`,
    `  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;`,
    `  const value: RequestValidationResult['value'] = { params: { ...request.params }, query: { ...request.query }, headers };`,
    `  if (request.body !== undefined) value.body = request.body;`,
    `  const errors: ValidationError[] = validate(value) ? [] : [...(validate.errors ?? [])];`,
    `  const validateBody = bodyValidators[operationId];`,
    `  if (validateBody && value.body !== undefined && !bodyChecks[operationId]!(value.body) && !validateBody(value.body)) {`,
    `    for (const e of validateBody.errors ?? []) errors.push({ ...e, instancePath: \`/body\${e.instancePath}\` });`,
    `  }`,
    `  if (errors.length === 0) return { valid: true, errors: [], problems: [], value };`,
    `  const problems = formatRequestErrors(errors.slice(0, MAX_ERRORS), queryRules[operationId]);`,
    `  const more = errors.length - Math.min(errors.length, MAX_ERRORS);`,
    `  return { valid: false, errors: [...problems.map((p) => p.problem), ...(more > 0 ? [\`and \${more} more problem(s)\`] : [])], errorCount: errors.length, problems, value };`,
    `}`,
    ``,
  ];
  return lines.join('\n');
}

function readme(index: ValidatorIndex): string {
  const schema = Object.keys(index.schemas)[0] ?? 'Job';
  const op = Object.keys(index.responses)[0] ?? 'jobs/list-project-jobs';
  return `
\`\`\`ts
import { is${pascalCase(schema)}, validateRequest, validateResponse, validateSchema } from '@service-api/validators';

if (is${pascalCase(schema)}(value)) { /* value is typed */ }
const { valid, errors } = validateResponse(${JSON.stringify(op)}, 200, body); // errors: ['/0/id must be integer']
const request = validateRequest(${JSON.stringify(op)}, { params, query, headers, body }); // strings coerced, errors name the field
\`\`\`

The validators are Ajv standalone code: nothing is compiled at run time. They need \`ajv\` and \`ajv-formats\`
(runtime helpers only) and run in Node >= 20 and in browsers (through a bundler).
`;
}
