import { defineConfig } from 'vitest/config';

// Engine-specific files say so in their name: *.pg.test.ts runs on PostgreSQL only,
// *.sqlite.test.ts on SQLite only; every other API test runs on both. A worker runs its files
// one after another in one process (isolate: false: the server's modules are loaded once per
// worker, not once per file); a file that mocks a module is *.isolated.test.ts and gets a
// process of its own.
const apiProject = (name: string, env: Record<string, string>, exclude: string, setupFiles: string[] = []) =>
  [false, true].map((isolated) => ({
    test: {
      name: isolated ? `${name}-isolated` : name,
      setupFiles,
      include: [isolated ? 'tests/api/**/*.isolated.test.ts' : 'tests/api/**/*.test.ts'],
      exclude: [exclude, ...(isolated ? [] : ['tests/api/**/*.isolated.test.ts'])],
      environment: 'node',
      // bcrypt at cost 4 under Vitest only (server/platform/identity/passwords.ts).
      env: { ...env, TEST_PASSWORD_HASH_ROUNDS: '4' },
      testTimeout: 30_000,
      hookTimeout: 60_000,
      pool: 'forks' as const,
      isolate: isolated,
    },
  }));

// The API suite runs on SQLite always, and again on PostgreSQL when TEST_DATABASE_URL is set.
// CI must run both: there a missing PostgreSQL fails the run instead of leaving its tests out.
if (process.env.CI === 'true' && !process.env.TEST_DATABASE_URL) {
  throw new Error('CI runs the API suite on PostgreSQL too: set TEST_DATABASE_URL (postgres://user@host:5432/db).');
}
const projects = [
  { test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' } },
  // Browser components with Testing Library in jsdom (the network is a stub per test).
  {
    test: {
      name: 'components',
      include: ['tests/components/**/*.test.tsx'],
      environment: 'jsdom',
      setupFiles: ['tests/components/setup.ts'],
    },
  },
  ...apiProject('api-sqlite', { TEST_DB: 'sqlite' }, 'tests/api/**/*.pg.test.ts'),
  // Each worker's PostgreSQL files in a database of its own (tests/fixtures/pg-worker.ts).
  ...(process.env.TEST_DATABASE_URL
    ? apiProject('api-postgres', { TEST_DB: 'postgres' }, 'tests/api/**/*.sqlite.test.ts', ['tests/fixtures/pg-worker.ts'])
    : []),
];

export default defineConfig({
  test: {
    projects,
    // Two files at once, named: on a 2-core machine the default ran one at a time, and the API
    // files spend much of their time waiting on PostgreSQL.
    maxWorkers: 2,
    reporters: ['default', 'json'],
    outputFile: { json: '.tmp/reports/vitest.json' },
  },
});
