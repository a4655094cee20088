import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, `tests: N passed, N failed, N skipped`, that any CI log reader understands, and
 * names the files that failed outside their tests (a hook or an import), whose tests count as skipped.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const failedFiles: string[] = [];
    for (const module of testModules) {
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed += 1;
        else if (state === 'failed') counts.failed += 1;
        else counts.skipped += 1;
        if (state === 'failed') failedTests += 1;
      }
      if (module.state() === 'failed' && failedTests === 0) failedFiles.push(module.relativeModuleId);
    }
    const files = failedFiles.length ? `; ${failedFiles.length} file(s) failed outside their tests: ${failedFiles.join(', ')}` : '';
    console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${files}`);
  }
}
