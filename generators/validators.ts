import { slashBanner } from './lib/banner.ts';
import { basename } from 'node:path';
import type { GeneratedFile } from './lib/files.ts';
import { operationModels } from './lib/model.ts';
import { pascalCase } from './lib/naming.ts';
import type { OpenApiDocument } from './lib/openapi.ts';
import { compileContractPackage, contractModule, packageDir, type ContractPackage } from './lib/package.ts';
import { schemaTypeNames, typesDeclarations, typesPackageName } from './types.ts';
import { buildValidators, type ValidatorIndex } from './lib/ajv.ts';
import { operationFiles } from './lib/ajv-operations.ts';

export const validatorsPackage: ContractPackage = { name: '@service-api/validators', id: 'validators' };
export const folder = `generated/${validatorsPackage.id}`;

const built = new WeakMap<OpenApiDocument, ReturnType<typeof buildValidators>>();

/** Ajv's standalone code for the document, built once per document (the sources and the build both read it). */
function ajvCode(doc: OpenApiDocument): ReturnType<typeof buildValidators> {
  let code = built.get(doc);
  if (!code) {
    code = buildValidators(doc);
    built.set(doc, code);
  }
  return code;
}

/**
 * The generated sources of `@service-api/validators`: the validator tables (`tables.ts`), the type guards (`guards.ts`)
 * and the same guards as Standard Schemas (`standard-guards.ts`) of the document,
 * the declarations of Ajv's standalone modules and the contract version. Its hand-written `src/` formats Ajv's errors.
 * Ajv's standalone code itself (no schema compilation at run time) is JavaScript, written to `dist/` by the build.
 */
export async function generateValidators(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const banner = slashBanner(doc, 'validators');
  const code = ajvCode(doc);
  const guardTypes = await schemaTypeNames(doc);
  return [
    { path: `${folder}/contract.ts`, contents: banner + contractModule(doc, 'const') },
    { path: `${folder}/fast.d.ts`, contents: banner + code.declarations('fast') },
    { path: `${folder}/guards.ts`, contents: banner + guardsModule(code.index, guardTypes) },
    { path: `${folder}/requests.d.ts`, contents: banner + code.declarations('requests') },
    { path: `${folder}/standalone.d.ts`, contents: banner + code.declarations('schemas') },
    { path: `${folder}/standard-guards.ts`, contents: banner + standardGuardsModule(code.index, guardTypes) },
    { path: `${folder}/tables.ts`, contents: banner + tablesModule(doc, code.index) },
  ];
}

const compiled = new WeakMap<OpenApiDocument, Promise<GeneratedFile[]>>();

/**
 * The compiled `dist/` of the validators: the hand-written `src/` and the generated sources compiled together, and
 * Ajv's standalone modules with their declarations.
 */
export function buildValidatorsPackage(doc: OpenApiDocument, generated: GeneratedFile[]): Promise<GeneratedFile[]> {
  let files = compiled.get(doc);
  if (!files) {
    files = compileValidators(doc, generated);
    compiled.set(doc, files);
  }
  return files;
}

async function compileValidators(doc: OpenApiDocument, generated: GeneratedFile[]): Promise<GeneratedFile[]> {
  const code = ajvCode(doc);
  const dist = `${packageDir(validatorsPackage)}/dist`;
  const declarations = generated
    .filter((f) => f.path.endsWith('.d.ts'))
    .map((f) => ({ ...f, path: `${dist}/${basename(f.path)}` }));
  return [
    ...compileContractPackage(validatorsPackage, generated, {
      packages: { [typesPackageName]: await typesDeclarations(doc) },
    }),
    ...declarations,
    { path: `${dist}/standalone.js`, contents: code.schemasCode },
    { path: `${dist}/fast.js`, contents: code.fastCode },
    { path: `${dist}/requests.js`, contents: code.requestsCode },
    // One module per operation (`<package>/operations/<operationId>`), with only that operation's validators.
    ...operationFiles(code).map((f) => ({ path: `${packageDir(validatorsPackage)}/${f.path}`, contents: f.contents })),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The `.d.ts` files of the validators package, for the compiler of a package that depends on it. */
export async function validatorsDeclarations(doc: OpenApiDocument): Promise<GeneratedFile[]> {
  const dist = await buildValidatorsPackage(doc, await generateValidators(doc));
  return dist.filter((f) => f.path.endsWith('.d.ts'));
}

/**
 * The validator tables of the document (`tables.ts`): by schema name, by operationId and status, with the fast twin of
 * each exact validator where there is one. The package's hand-written `index.ts` validates with them.
 */
function tablesModule(doc: OpenApiDocument, index: ValidatorIndex): string {
  const q = JSON.stringify;
  const ops = operationModels(doc);
  const lines = [
    `import * as s from './standalone.js';`,
    `import * as f from './fast.js';`,
    `import * as r from './requests.js';`,
    `import type { ValidateFunction } from './validation.js';`,
    ``,
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
    `/** Fast validators (first failure, no messages) of the component schemas, by schema name. */`,
    `export const schemaChecks: Record<SchemaName, ValidateFunction> = {`,
    ...Object.entries(index.schemas).map(([name, fn]) => `  ${q(name)}: ${quick(index, fn)},`),
    `};`,
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
    `export const responseChecks: Record<string, Record<string, ValidateFunction>> = {`,
    ...Object.entries(index.responses).map(
      ([op, byStatus]) =>
        `  ${q(op)}: { ${Object.entries(byStatus)
          .map(([st, fn]) => `${q(st)}: ${quick(index, fn)}`)
          .join(', ')} },`,
    ),
    `};`,
    ``,
    `export type RequestOperationId = ${ops.map((o) => q(o.operationId)).join(' | ') || 'never'};`,
    ``,
    `/** Fast validators of JSON request bodies, by operationId. */`,
    `export const bodyChecks: Partial<Record<RequestOperationId, ValidateFunction>> = {`,
    ...Object.entries(index.bodies).map(([op, fn]) => `  ${q(op)}: ${quick(index, fn)},`),
    `};`,
    ``,
    `/** Exact validators of JSON request bodies, by operationId. */`,
    `export const bodyValidators: Partial<Record<RequestOperationId, ValidateFunction>> = {`,
    ...Object.entries(index.bodies).map(([op, fn]) => `  ${q(op)}: s.${fn},`),
    `};`,
    ``,
    `/** The rules across the query parameters (\`x-query-schema\`) of the operations that state some, in order. */`,
    `export const queryRules: Partial<Record<RequestOperationId, readonly string[]>> = {`,
    ...Object.entries(index.queryRules).map(([op, rules]) => `  ${q(op)}: ${q(rules)},`),
    `};`,
    ``,
    `/** Validators of whole requests \`{ params, query, headers, body }\`, by operationId (strings are coerced). */`,
    `export const requestValidators: Record<RequestOperationId, ValidateFunction> = {`,
    ...Object.entries(index.requests).map(([op, fn]) => `  ${q(op)}: r.${fn},`),
    `};`,
    ``,
  ];
  return lines.join('\n');
}

/** Each guard's name (`isJob`) and the component schema it checks; two schemas may not give one name. */
function guardNames(index: ValidatorIndex): Map<string, string> {
  const guards = new Map<string, string>();
  for (const name of Object.keys(index.schemas)) {
    const guard = `is${pascalCase(name)}`;
    if (guards.has(guard)) throw new Error(`Schemas ${guards.get(guard)} and ${name} both give the guard ${guard}`);
    guards.set(guard, name);
  }
  return guards;
}

/** The name of the type a schema's guard narrows to, in the types package. */
function typeName(typeNames: ReadonlyMap<string, string>, schema: string): string {
  const name = typeNames.get(schema);
  if (!name) throw new Error(`Schema ${schema} has no root type in ${typesPackageName}`);
  return name;
}

/**
 * A type guard per component schema (`isJob`) on the fast validator alone (`guards.ts`): a bundle that imports one
 * guard carries its fast validator only, not the exact one that Standard Schema's issues need.
 */
function guardsModule(index: ValidatorIndex, typeNames: ReadonlyMap<string, string>): string {
  const guards = guardNames(index);
  const fastOnly = [...guards.values()].every((name) => index.fast[index.schemas[name]!]);
  return [
    ...(fastOnly ? [] : [`import * as s from './standalone.js';`]),
    `import * as f from './fast.js';`,
    `import type * as T from './types.js';`,
    ``,
    ...[...guards].map(([guard, name]) =>
      [
        `/**`,
        ` * Whether \`value\` is a valid \`${name}\` (stops at the first failure). Its Standard Schema, with the issues and`,
        ` * their paths, is \`${guard}\` of \`@service-api/validators/standard\`.`,
        ` */`,
        `export function ${guard}(value: unknown): value is T.${typeName(typeNames, name)} {`,
        `  return ${quick(index, index.schemas[name]!)}(value);`,
        `}`,
      ].join('\n'),
    ),
    ``,
  ].join('\n');
}

/**
 * The same guards, each also a Standard Schema (`standard-guards.ts`, exported by `@service-api/validators/standard`):
 * the fast validator narrows, the exact one gives the issues of a value it refuses.
 */
function standardGuardsModule(index: ValidatorIndex, typeNames: ReadonlyMap<string, string>): string {
  return [
    `import * as s from './standalone.js';`,
    `import * as f from './fast.js';`,
    `import { type Guard, guard } from './standard.js';`,
    `import type * as T from './types.js';`,
    ``,
    ...[...guardNames(index)].map(([guard, name]) => {
      const exact = index.schemas[name]!;
      return [
        `/**`,
        ` * Whether \`value\` is a valid \`${name}\` (stops at the first failure), and a Standard Schema:`,
        ` * \`${guard}['~standard'].validate(value)\` gives the issues with their paths.`,
        ` */`,
        `export const ${guard}: Guard<T.${typeName(typeNames, name)}> = /* @__PURE__ */ guard(${quick(index, exact)}, s.${exact});`,
      ].join('\n');
    }),
    ``,
  ].join('\n');
}

/** The fast twin of an exact validator where there is one, else the exact validator itself. */
function quick(index: ValidatorIndex, exportName: string): string {
  return index.fast[exportName] ? `f.${index.fast[exportName]}` : `s.${exportName}`;
}
