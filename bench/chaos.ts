/**
 * npm run chaos — fault experiments against the production bundle (node build/server/main.js,
 * as npm start runs it), each on a fresh data folder or PostgreSQL schema:
 * - kill: 8 clients, 200 creates; SIGKILL half-way, restart on the same data; every 201 has its
 *   row, audit entry and record version; the audit chain verifies (SQLite and PostgreSQL);
 * - terminate: PostgreSQL ends the instance's connections 30 times while 8 clients create and
 *   search; only 2xx and 503 DATABASE_UNAVAILABLE, the process lives, creates work again;
 * - s3: the bucket's server (s3rver) stopped ~3 s under uploads; 503 STORAGE_UNAVAILABLE, then 201s;
 * - disk: SQLite on a 40 MB tmpfs filled up (root only); 507 DISK_FULL, then 201s, integrity ok;
 * - restore: backup, wipe, restore with the bundle's command; same row counts, chain head, files.
 * Prints one markdown table; exits 1 when an expectation failed (server logs are then kept).
 *
 * Options: --only kill,terminate,s3,disk,restore  --engines sqlite,postgres (terminate runs with
 * postgres; s3, disk and restore with sqlite)  --pg URL (default postgres://postgres@127.0.0.1:5432/test).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchEngines, option } from './support.js';
import { killAll, logDir, root } from './chaos-kit.js';
import { killUnderLoad, terminateConnections, type Row } from './chaos-db.js';
import { fullDisk, s3Outage } from './chaos-files.js';
import { restoreDrill } from './chaos-restore.js';

const FAULTS = ['kill', 'terminate', 's3', 'disk', 'restore'] as const;
const only = option('only', FAULTS.join(','))
  .split(',')
  .map((f) => f.trim());
const engines = benchEngines();
for (const f of only)
  if (!(FAULTS as readonly string[]).includes(f)) throw new Error(`--only: unknown fault "${f}" (${FAULTS.join(', ')})`);
if (!fs.existsSync(path.join(root, 'build/server/main.js')))
  throw new Error('No build/server/main.js: run node scripts/build-server.mjs first (npm run chaos does).');

process.once('SIGINT', () => {
  killAll();
  process.exit(130);
});

const plan: Array<{ fault: string; engine: string; run: () => Promise<Row> }> = [];
if (only.includes('kill'))
  for (const engine of engines) plan.push({ fault: 'kill -9 under load', engine, run: () => killUnderLoad(engine) });
if (only.includes('terminate') && engines.includes('postgres'))
  plan.push({ fault: 'PG connections ended under load', engine: 'postgres', run: terminateConnections });
if (engines.includes('sqlite')) {
  if (only.includes('s3')) plan.push({ fault: 'S3 stopped and restarted', engine: 'sqlite + S3', run: s3Outage });
  if (only.includes('disk')) plan.push({ fault: 'full disk', engine: 'sqlite', run: fullDisk });
  if (only.includes('restore')) plan.push({ fault: 'restore drill', engine: 'sqlite', run: restoreDrill });
}

const started = performance.now();
const rows: Row[] = [];
for (const step of plan) {
  const t0 = performance.now();
  let row: Row;
  try {
    row = await step.run();
  } catch (err) {
    row = {
      fault: step.fault,
      engine: step.engine,
      answers: '',
      process: '',
      servedAgain: '',
      checks: [],
      failures: [`error: ${(err as Error).message}`],
    };
  }
  rows.push(row);
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  console.log(`· ${row.fault} (${row.engine}): ${row.failures.length ? `FAILED: ${row.failures.join('; ')}` : 'ok'} in ${seconds} s`);
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const lines = [
  '| fault | engine | answers: 2xx / 503 / 507 / other 5xx | process | served again | data checks | result |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  ...rows.map(
    (r) =>
      `| ${[r.fault, r.engine, r.answers, r.process, r.servedAgain, r.checks.join('; '), r.failures.length ? `**FAIL**: ${r.failures.join('; ')}` : 'ok'].map(cell).join(' | ')} |`,
  ),
];
const failed = rows.some((r) => r.failures.length > 0);
console.log(`\n${lines.join('\n')}\n`);
console.log(
  `${rows.length} experiments in ${((performance.now() - started) / 1000).toFixed(1)} s (${os.cpus().length} cores, Node ${process.version})`,
);
if (failed) {
  console.log(`Server logs kept in ${logDir}`);
  process.exitCode = 1;
} else {
  fs.rmSync(logDir, { recursive: true, force: true });
}
