import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// E2E_PORT_BASE keeps several runs on one machine apart (their reports and results folders).
const BASE = Number(process.env.E2E_PORT_BASE || 3100);
// Each spec file starts servers of its own (tests/e2e/fixtures.ts), so files run side by side:
// three at once keep a 2-core machine busy while specs wait on servers and timers; four
// overload it.
const WORKERS = Number(process.env.E2E_WORKERS || 3);

export const E2E = {
  /** The first super admin of every e2e server (INITIAL_ADMIN_*). */
  admin: { username: 'e2e_superadmin', password: 'E2e#Passw0rd', fullname: 'Elena Reyes', email: 'elena.reyes@da.example' },
  /** Settings of the server whose sessions end after a short idle time. */
  shortIdle: { SESSION_IDLE_TIMEOUT_MS: '6000', SESSION_RECHECK_MS: '1000' },
};

const browser = { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 860 } };
// E2E_ORDER=reverse runs the spec files last to first (one project each, in that order): no
// file may depend on another having run before it.
const specs = fs
  .readdirSync('tests/e2e')
  .filter((f) => f.endsWith('.spec.ts'))
  .sort();
const projects =
  process.env.E2E_ORDER === 'reverse'
    ? specs.reverse().map((file) => ({ name: file, testMatch: `**/${file}`, use: browser }))
    : [{ name: 'chromium', use: browser }];

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: `.tmp/pw-results-${BASE}`,
  globalSetup: './tests/e2e/global-setup.ts',
  // Three workers keep both cores busy, where a step takes several times as long as alone: the
  // waits have room (a wait ends as soon as its condition holds; only a failure waits it out).
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: `.tmp/reports/playwright-${BASE}.json` }]],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects,
});
