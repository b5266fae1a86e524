import { browserSkipReason, CHROMIUM_PATH } from './chromium.js';

/**
 * Says plainly, once per run, which parts of the suite run and which are skipped:
 * PostgreSQL tests need TEST_DATABASE_URL, Redis tests need TEST_REDIS_URL, browser tests chromium.
 */
export default function announceSuiteScope(): void {
  const lines = ['Tabularium test suite:', '  SQLite: every database test runs on an embedded SQLite file'];
  lines.push(
    process.env.TEST_DATABASE_URL
      ? `  PostgreSQL: runs on ${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')}, one fresh schema per test file`
      : '  PostgreSQL: SKIPPED (set TEST_DATABASE_URL=postgres://… to run every database test on PostgreSQL too)',
  );
  lines.push(process.env.TEST_REDIS_URL ? `  Redis: runs on ${process.env.TEST_REDIS_URL}` : '  Redis: SKIPPED (set TEST_REDIS_URL=redis://… to run the Redis tests)');
  lines.push(browserSkipReason ? `  Browser: SKIPPED (${browserSkipReason})` : `  Browser: runs in ${CHROMIUM_PATH} (headless)`);
  console.log(`${lines.join('\n')}\n`);
}
