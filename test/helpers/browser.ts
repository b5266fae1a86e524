import { describe } from 'vitest';
import { browserSkipReason } from './chromium.js';

export { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.js';

/**
 * Declares a block that needs the browser: it runs where chromium is installed and is reported as
 * skipped, with the reason in its title, where it is not (as the harness does for PostgreSQL).
 * @example describeInBrowser('share page', () => describeApi(…))
 */
export function describeInBrowser(title: string, define: () => void): void {
  const label = browserSkipReason ? `${title} [browser: skipped, ${browserSkipReason}]` : title;
  describe.skipIf(browserSkipReason !== null)(label, define);
}
