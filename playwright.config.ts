import { defineConfig, devices } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
// E2E_PORT_BASE lets several runs share a machine (each gets its own ports and data folders).
const BASE = Number(process.env.E2E_PORT_BASE || 3100);
export const E2E = {
  main: { port: BASE, dataDir: `.tmp/e2e-${BASE}-main` },
  idle: { port: BASE + 1, dataDir: `.tmp/e2e-${BASE}-idle`, idleTimeoutMs: 6000 },
  admin: { username: 'e2e_superadmin', password: 'E2e#Passw0rd', fullname: 'Elena Reyes', email: 'elena.reyes@da.example' },
};

const serverEnv = (dataDir: string, port: number, extra: Record<string, string> = {}) => ({
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
  INITIAL_ADMIN_USERNAME: E2E.admin.username,
  INITIAL_ADMIN_PASSWORD: E2E.admin.password,
  INITIAL_ADMIN_FULLNAME: E2E.admin.fullname,
  INITIAL_ADMIN_EMAIL: E2E.admin.email,
  ...extra,
});

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: `.tmp/pw-results-${BASE}`,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: `.tmp/reports/playwright-${BASE}.json` }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E.main.port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1366, height: 860 } } }],
  // The main server runs the built JavaScript, as `npm start` does; the short-idle one runs from source.
  webServer: [
    {
      command: `node scripts/build-server.mjs && rm -rf ${E2E.main.dataDir} && node build/server/main.js`,
      url: `http://127.0.0.1:${E2E.main.port}/api/health`,
      env: serverEnv(E2E.main.dataDir, E2E.main.port),
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `rm -rf ${E2E.idle.dataDir} && npx tsx server/main.ts`,
      url: `http://127.0.0.1:${E2E.idle.port}/api/health`,
      env: serverEnv(E2E.idle.dataDir, E2E.idle.port, { SESSION_IDLE_TIMEOUT_MS: String(E2E.idle.idleTimeoutMs), SESSION_RECHECK_MS: '1000' }),
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
