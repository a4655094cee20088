/**
 * One module per operation, `dist/operations/<operationId>.js` (`exports` offers it as `<package>/operations/*`): its `validateResponse` and `validateRequest`, with
 * only that operation's Ajv standalone code, so that a bundle importing one operation carries nothing else.
 * The validators are compiled once (buildValidators); standalone code for a subset of a compiled Ajv instance's
 * schemas holds just the functions those schemas reach, so shared component schemas are repeated in each module.
 */
import { posix } from 'node:path';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { type BuiltValidators, esm, type ValidatorModule } from './ajv.ts';
import type { GeneratedFile } from './files.ts';

/** The module of an operation, relative to the package root. */
export const operationModulePath = (operationId: string) => `dist/operations/${operationId}.js`;

/** Where an operation's standalone code sits: outside `dist/operations/`, so `exports` does not offer it. */
const codePath = (operationId: string, module: string) => `dist/operation-validators/${operationId}/${module}.js`;

/** A relative import specifier from the file at `from` to the file at `to` (both relative to the package root). */
function specifier(from: string, to: string): string {
  const relative = posix.relative(posix.dirname(from), to);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * The operation modules of a package, paths relative to its root: for each operation, the module and its
 * declarations, and up to two standalone modules (the exact response and body validators, the request validator),
 * compiled by the same Ajv instances as the whole-package modules. The fast twins the whole package uses for speed
 * are left out: they would double the bundle, and the exact validators give the same answers.
 */
export function operationFiles(built: BuiltValidators): GeneratedFile[] {
  const { index } = built;
  return Object.keys(index.requests).flatMap((operationId) => {
    const responses = index.responses[operationId] ?? {};
    const body = index.bodies[operationId];
    const exactNames = [...new Set([...Object.values(responses), ...(body ? [body] : [])])];
    const code: [ValidatorModule, string, string[]][] = [
      ['schemas', 'exact', exactNames],
      ['requests', 'request', [index.requests[operationId]!]],
    ];
    const modulePath = operationModulePath(operationId);
    const files = code
      .filter(([, , names]) => names.length > 0)
      .map(([module, file, names]) => {
        const path = codePath(operationId, file);
        return { path, contents: standaloneModule(built, module, names, specifier(path, 'dist/formats.js')) };
      });
    const imports = files.map(
      (f) => `import * as ${posix.basename(f.path, '.js')} from ${JSON.stringify(specifier(modulePath, f.path))};`,
    );
    const validation = JSON.stringify(specifier(modulePath, 'dist/validation.js'));
    const standard = JSON.stringify(specifier(modulePath, 'dist/standard.js'));
    const q = JSON.stringify;
    const statuses = Object.keys(responses);
    const js = [
      `import { checkRequest, checkResponse } from ${validation};`,
      `import { standardBody, standardRequest } from ${standard};`,
      ...imports,
      ``,
      `export const operationId = ${q(operationId)};`,
      `const responses = { ${statuses.map((s) => `${q(s)}: exact.${responses[s]}`).join(', ')} };`,
      `const requestValidators = {`,
      `  request: request.${index.requests[operationId]},`,
      ...(body ? [`  body: exact.${body},`] : []),
      ...(index.queryRules[operationId] ? [`  queryRules: ${q(index.queryRules[operationId])},`] : []),
      `};`,
      ``,
      `export function validateResponse(status, body) {`,
      `  return checkResponse(operationId, responses, responses, status, body);`,
      `}`,
      ``,
      `export function validateRequest(parts) {`,
      `  return checkRequest(requestValidators, parts);`,
      `}`,
      ``,
      `export const requestSchema = /* @__PURE__ */ standardRequest(requestValidators);`,
      ``,
      `export function responseSchema(status) {`,
      `  const validate = responses[String(status)];`,
      `  if (!validate) throw new Error(\`Operation \${operationId} documents no JSON body for status \${status}\`);`,
      `  return standardBody(validate, validate);`,
      `}`,
      ``,
    ];
    const dts = [
      `import type { RequestParts, RequestValidationResult, ValidationResult } from ${validation};`,
      `import type { ResponseBody, StandardSchemaV1, StatusCode, ValidatedRequest } from ${standard};`,
      ``,
      `export declare const operationId: ${q(operationId)};`,
      `/** The statuses of ${operationId} whose JSON body has a validator. */`,
      `export type ResponseStatus = ${statuses.map((s) => q(s)).join(' | ') || 'never'};`,
      `/** Validates a JSON response body of ${operationId}; statuses without a JSON body have no validator. */`,
      `export declare function validateResponse(status: ResponseStatus | number, body: unknown): ValidationResult;`,
      `/** Validates a request of ${operationId}; errors name the bad field (\`query parameter per_page must be <= 100\`). */`,
      `export declare function validateRequest(request: RequestParts): RequestValidationResult;`,
      `/** The request's Standard Schema: its output is the request with strings coerced; issue paths start with the part. */`,
      `export declare const requestSchema: StandardSchemaV1<RequestParts, ValidatedRequest>;`,
      `/** The Standard Schema of the JSON response body of a status (throws for a status without one). */`,
      `export declare function responseSchema<S extends ResponseStatus | StatusCode<ResponseStatus>>(status: S): StandardSchemaV1<ResponseBody<${q(operationId)}, S>, ResponseBody<${q(operationId)}, S>>;`,
      ``,
    ];
    return [
      { path: modulePath, contents: js.join('\n') },
      { path: modulePath.replace(/\.js$/, '.d.ts'), contents: dts.join('\n') },
      ...files,
    ];
  });
}

/** The standalone code of some exports of a compiled module, importing the package's formats from `formats`. */
function standaloneModule(built: BuiltValidators, module: ValidatorModule, names: string[], formats: string): string {
  const { ajv, ids } = built.compiled[module];
  const code = standaloneCode.default(ajv, Object.fromEntries(names.map((name) => [name, ids[name]!])));
  const located = code.replaceAll('require("./formats.js")', `require(${JSON.stringify(formats)})`);
  return esm(located);
}
