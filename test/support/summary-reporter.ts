import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, `tests: N passed, N failed, N skipped`, that any CI log reader understands, names
 * every skipped test with its reason (the note given to `ctx.skip(note)`, or the title, which names what is missing)
 * and the files that failed outside their tests (a hook or an import), whose tests count as skipped. On CI
 * (`CI=true`) every tool a test needs is installed, so a skipped test fails the run: a green CI run ran everything.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const skipped: string[] = [];
    const failedFiles: string[] = [];
    for (const module of testModules) {
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') counts.passed += 1;
        else if (result.state === 'failed') counts.failed += 1;
        else {
          counts.skipped += 1;
          skipped.push(skippedLine(module, test, result.state === 'skipped' ? result.note : undefined));
        }
        if (result.state === 'failed') failedTests += 1;
      }
      if (module.state() === 'failed' && failedTests === 0) failedFiles.push(module.relativeModuleId);
    }
    const files = failedFiles.length
      ? `; ${failedFiles.length} file(s) failed outside their tests: ${failedFiles.join(', ')}`
      : '';
    if (skipped.length > 0) console.log(`\nskipped:\n${skipped.map((line) => `  - ${line}`).join('\n')}`);
    console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${files}`);
    if (skipped.length > 0 && process.env.CI === 'true') {
      console.error(`✖ CI=true: ${skipped.length} skipped test(s) fail the run (on CI every test runs)`);
      process.exitCode = 1;
    }
  }
}

function skippedLine(module: TestModule, test: TestCase, note: string | undefined): string {
  return `${module.relativeModuleId} > ${test.fullName}${note ? ` (${note})` : ''}`;
}
