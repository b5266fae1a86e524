import { existsSync } from 'node:fs';

/** Debian's chromium: the browser tests drive it with playwright-core and never download one. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** How the tests start it: headless, unsandboxed (containers), and quiet on the network. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Why browser tests cannot run here, or null when they can (read by the summary reporter too, so no vitest here). */
export const browserSkipReason: string | null = existsSync(CHROMIUM_PATH) ? null : `${CHROMIUM_PATH} not found (apt-get install chromium)`;
