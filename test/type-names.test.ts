/**
 * What an editor shows: the language service's quick info and the compiler's messages name the records (`MergeRequest`,
 * `Job`) and the inputs (`CreateMergeRequestInput`) of the client's methods, the server's handlers and the
 * validators' guards, instead of spelling out their structure (`WithRequired<{ id?: number; …`). Read from the
 * packages' built declarations, as a consumer's editor reads them.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../scripts/lib/paths.ts';

/** A consumer's file; each `/*name*\/` marks the identifier after it, whose quick info the test reads. */
const consumer = `
import { createServiceApi } from '@service-api/client';
import type { Handlers } from '@service-api/server';
import { isJob, isMergeRequest } from '@service-api/validators';

const api = createServiceApi({ host: 'https://service.example' });
export async function flow(input: Parameters<typeof api.mergeRequests.createMergeRequest>[0], value: unknown) {
  const /*created*/created = await api.mergeRequests./*createMethod*/createMergeRequest(input);
  const /*job*/job = await api.jobs.getProjectJob({ path: { id: 1, job_id: 2 } });
  const /*jobs*/jobs = await api.jobs.listProjectJobs({ path: { id: 1 } });
  if (isJob(value)) console.log(/*guarded*/value);
  return { created, job, jobs, guard: /*guard*/isMergeRequest };
}

export const handlers: Handlers = {
  'merge-requests/create-merge-request': async (/*handlerInput*/input) => ({ status: 201, body: /*handlerBody*/{} as never }),
};

// Each line below is a type error whose message the test reads.
export const missing: import('@service-api/client').MergeRequest = {};
export const wrongResult: Handlers = { 'jobs/get-project-job': async () => ({ status: 200, body: { id: 'one' } }) };
`;

const FILE = join(ROOT, 'test', '__type-names__.ts');

function languageService(): ts.LanguageService {
  const options: ts.CompilerOptions = {
    strict: true,
    exactOptionalPropertyTypes: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    noEmit: true,
  };
  const host: ts.LanguageServiceHost = {
    getCompilationSettings: () => options,
    getScriptFileNames: () => [FILE],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => ts.ScriptSnapshot.fromString(name === FILE ? consumer : (ts.sys.readFile(name) ?? '')),
    getCurrentDirectory: () => ROOT,
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (name) => name === FILE || ts.sys.fileExists(name),
    readFile: (name) => (name === FILE ? consumer : ts.sys.readFile(name)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
    realpath: ts.sys.realpath,
  };
  return ts.createLanguageService(host, ts.createDocumentRegistry());
}

describe('type names in editors', () => {
  const service = languageService();
  const quickInfo = (marker: string) => {
    const at = consumer.indexOf(`/*${marker}*/`);
    if (at < 0) throw new Error(`no marker ${marker}`);
    const info = service.getQuickInfoAtPosition(FILE, at + marker.length + 4);
    return ts.displayPartsToString(info?.displayParts);
  };
  const messages = () =>
    service
      .getSemanticDiagnostics(FILE)
      .map(
        (d) =>
          `${consumer.slice(0, d.start).split('\n').length}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );

  it.each([
    ['created', 'const created: MergeRequest'],
    ['job', 'const job: Job'],
    ['jobs', 'const jobs: Job[]'],
    ['guarded', 'value: Job'],
    ['guard', 'value is MergeRequest'],
  ])('quick info of %s names the record: %s', (marker, expected) => {
    const text = quickInfo(marker);
    expect(text).toContain(expected);
    expect(text).not.toContain('WithRequired');
  });

  it('quick info of a client method names its input and its result', () => {
    const text = quickInfo('createMethod');
    expect(text).toContain('CreateMergeRequestInput');
    expect(text).toContain('MergeRequest');
    expect(text).not.toContain('WithRequired');
  });

  it('the messages of type errors name the record', () => {
    const lines = messages();
    expect(lines.join('\n')).not.toContain('WithRequired');
    const missing = lines.find((l) => l.includes("type 'MergeRequest'"));
    expect(missing, lines.join('\n')).toMatch(/missing the following properties from type 'MergeRequest'/);
    expect(
      lines.some((l) => /'Job'/.test(l)),
      lines.join('\n'),
    ).toBe(true);
    expect(lines).toHaveLength(2);
  });
});
