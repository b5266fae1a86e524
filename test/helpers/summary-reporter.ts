import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with one plain line, `tests: N passed, N failed, N skipped`, that any CI can read,
 * and repeats which database engines were skipped.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
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
    if (notes.length) console.log(`\n${notes.join('\n')}`);
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
