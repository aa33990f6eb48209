/**
 * npm-less usage: npx tsx bench/maintenance.ts [--rows 1000,10000,50000] [--calls 100]
 *
 * File maintenance under realistic data: for each table size, a fresh database (SQLite in a
 * temp folder; PostgreSQL in a throw-away schema as well when BENCH_DATABASE_URL is set) is
 * filled with that many live varieties (seasons and environments as JSON lists, like the
 * varieties module stores them) and accounts with security questions; then, through the real
 * app (buildApp + app.inject, session cookie of a super admin), it times:
 *   - GET usage counts of the rice variety lists (one pass over the table for the JSON lists,
 *     two grouped counts for planting method and year release);
 *   - GET usage counts of the security questions;
 *   - GET /api/maintenance/options (what every variety form and settings dialog reads);
 *   - one add followed by one remove (each a transaction with its audit entry and a live event).
 * Prints median and p99 per operation.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import { createAccount } from '../server/modules/identity/accounts/create-account.js';
import { option, percentile } from './support.js';

const sizes = option('rows', '1000,10000,50000').split(',').map(Number);
const calls = Number(option('calls', '100'));
const pgUrl = process.env.BENCH_DATABASE_URL;

const SEASONS = [['Dry'], ['Wet'], ['Dry', 'Wet']];
const ENVIRONMENTS = [['Low Irrigated Land'], ['Rainfed Lowland'], ['Upperland'], ['Low Irrigated Land', 'Rainfed Lowland']];
const METHODS = ['Direct Seed', 'Transplanting'];
const QUESTIONS = ["What is your mother's maiden name?", 'In what city were you born?', 'What was the name of your first school?'];

async function timeIt(n: number, fn: () => Promise<void>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(10, n); i += 1) await fn(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

async function run(engine: 'sqlite' | 'postgres', rows: number): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-bench-maint-'));
  let databaseUrl: string | undefined;
  let schema: string | undefined;
  if (engine === 'postgres') {
    schema = `bench_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const u = new URL(pgUrl!);
    u.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = u.toString();
  }
  const config = loadConfig(
    {},
    { dataDir, databaseUrl, logLevel: 'silent', loginRateLimitPerMinute: 1000, eventChannel: schema ? `ev_${schema}` : 'palayan_events' },
  );
  const { app, ctx } = await buildApp(config, { logger: false });
  try {
    const user = {
      username: 'bench_super',
      password: 'Bench#Pass1',
      fullname: 'Bench Super',
      email: 'bench@example.test',
      role: 'SYSTEM_ADMIN' as const,
    };
    await createAccount(ctx.db, user, null);
    const now = new Date().toISOString();
    const batch = 500;
    for (let start = 0; start < rows; start += batch) {
      const values = [];
      for (let i = start; i < Math.min(rows, start + batch); i += 1) {
        values.push({
          id: `v${i}`,
          varietyName: `NSIC Rc ${i}`,
          createdAt: now,
          isDeleted: i % 20 === 0 ? 1 : 0,
          season: JSON.stringify(SEASONS[i % SEASONS.length]),
          environment: JSON.stringify(ENVIRONMENTS[i % ENVIRONMENTS.length]),
          plantingMethod: METHODS[i % METHODS.length]!,
          yearRelease: String(2012 + (i % 14)),
        });
      }
      await ctx.db.insertInto('rice_seed_varieties').values(values).execute();
    }
    const accounts = Math.min(2000, Math.ceil(rows / 10));
    for (let start = 0; start < accounts; start += batch) {
      const values = [];
      for (let i = start; i < Math.min(accounts, start + batch); i += 1) {
        values.push({
          id: `a${i}`,
          fullname: `Staff ${i}`,
          username: `staff_${i}`,
          normalizedUsername: `staff_${i}`,
          email: null,
          normalizedEmail: null,
          contactNo: null,
          photoURL: null,
          password: 'x',
          securityQuestion: QUESTIONS[i % QUESTIONS.length]!,
          securityAnswer: null,
          role: 'ADMIN',
          status: 'active',
          restrictedAt: null,
          autoInactiveAt: null,
          currentSession: null,
          lastLogin: null,
          lastLogoutAt: null,
          createdAt: now,
          updatedAt: null,
          deletedAt: null,
          deletedBy: null,
        });
      }
      await ctx.db.insertInto('accounts').values(values).execute();
    }
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: user.username, password: user.password },
    });
    const cookie = `palayan_session=${login.cookies.find((c) => c.name === 'palayan_session')!.value}`;
    const get = (url: string) => async () => {
      const res = await app.inject({ url, headers: { cookie } });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    };
    const usage = await timeIt(calls, get('/api/maintenance/documents/rice_varieties_enums/usage'));
    const questions = await timeIt(calls, get('/api/maintenance/documents/accounts_enums/usage'));
    const options = await timeIt(calls, get('/api/maintenance/options'));
    let k = 0;
    const addRemove = await timeIt(Math.min(calls, 50), async () => {
      const value = `Bench season ${(k += 1)}`;
      const url = '/api/maintenance/documents/rice_varieties_enums/lists/seasons';
      const a = await app.inject({ method: 'POST', url, headers: { cookie }, payload: { value } });
      const r = await app.inject({ method: 'DELETE', url: `${url}?value=${encodeURIComponent(value)}`, headers: { cookie } });
      if (a.statusCode !== 200 || r.statusCode !== 200) throw new Error(`add/remove: ${a.statusCode} ${r.statusCode}`);
    });
    const f = (x: { p50: number; p99: number }) => `p50 ${x.p50.toFixed(2)} ms  p99 ${x.p99.toFixed(2)} ms`;
    console.log(`${engine.padEnd(8)} ${String(rows).padStart(6)} varieties, ${String(accounts).padStart(5)} accounts`);
    console.log(`  variety usage counts      ${f(usage)}`);
    console.log(`  security question counts  ${f(questions)}`);
    console.log(`  GET /api/maintenance/options ${f(options)}`);
    console.log(`  add + remove (2 writes)   ${f(addRemove)}`);
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema) {
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  }
}

console.log(`calls per operation: ${calls} (after 10 warm-up calls), in-process through app.inject`);
for (const rows of sizes) {
  await run('sqlite', rows);
  if (pgUrl) await run('postgres', rows);
}
