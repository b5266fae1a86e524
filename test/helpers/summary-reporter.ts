import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import { browserSkipReason } from './chromium.js';

/**
 * Ends the run with one plain line, `tests: N passed, N failed, N skipped`, that any CI can read,
 * and repeats which database engines (and the browser tests) were skipped. A file or block that failed before its tests
 * ran (a failing beforeAll, an import error) counts as failed, never as skipped.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      if (module.errors().length > 0) failed++;
      for (const suite of module.children.allSuites()) if (suite.errors().length > 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    const notes = [];
    if (!process.env.TEST_DATABASE_URL) notes.push('PostgreSQL tests skipped: TEST_DATABASE_URL not set');
    if (!process.env.TEST_REDIS_URL) notes.push('Redis tests skipped: TEST_REDIS_URL not set');
    if (browserSkipReason) notes.push(`Browser tests skipped: ${browserSkipReason}`);
    if (notes.length) console.log(`\n${notes.join('\n')}`);
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
