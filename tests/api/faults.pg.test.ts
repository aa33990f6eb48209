import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/texts.js';
import { buildApp, type BuiltApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { pgRelay } from '../fixtures/pg-relay.js';
import { varietyBody } from '../fixtures/varieties.js';

/**
 * The database going away under load: connections ended by the server (57P01, as a restart or
 * pg_terminate_backend sends), and the database not reachable at all. The process stays up,
 * requests get a 503 that names the database, and it serves again within 5 s of the database
 * answering.
 */
const base = process.env.TEST_DATABASE_URL!;
const schema = `f_${Math.random().toString(36).slice(2, 10)}`;
const instanceId = `faults-${schema}`;

const proxy = pgRelay(base);
let built: BuiltApp;
let dataDir: string;
let cookie: string;
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await proxy.start();
  const url = new URL(base);
  url.port = String(proxy.port);
  url.hostname = '127.0.0.1';
  url.searchParams.set('options', `-c search_path=${schema}`);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-faults-'));
  built = await buildApp(
    loadConfig(
      {},
      {
        dataDir,
        databaseUrl: url.toString(),
        logLevel: 'silent',
        instanceId,
        eventChannel: `events_${schema}`,
        loginRateLimitPerMinute: 100_000,
      },
    ),
    { logger: false },
  );
  cookie = await loginAs(built.app, await makeAccount(built.ctx));
});

afterAll(async () => {
  await built.app.close();
  await proxy.stop();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const create = () => built.app.inject({ method: 'POST', url: '/api/varieties', headers: { cookie }, payload: varietyBody() });
const search = () => built.app.inject({ url: '/api/varieties?search=rc', headers: { cookie } });

/** Retries a request until it answers `status`; the time it took. */
async function until(send: () => Promise<{ statusCode: number }>, status: number, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if ((await send()).statusCode === status) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`no ${status} within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the database ends the connections under load', () => {
  it('30 terminations 100 ms apart under 8 clients: no crash, only 2xx or the named 503, serving again at once', async () => {
    let stop = false;
    const answers: number[] = [];
    const bodies: string[] = [];
    const client = async () => {
      while (!stop) {
        const res = await (answers.length % 2 ? search() : create());
        answers.push(res.statusCode);
        if (res.statusCode >= 500) bodies.push(res.body);
      }
    };
    const clients = Array.from({ length: 8 }, client);
    let ended = 0;
    for (let i = 0; i < 30; i += 1) {
      const r = await admin.query('select count(pg_terminate_backend(pid)) as n from pg_stat_activity where application_name like $1', [
        `palayan:${instanceId}%`,
      ]);
      ended += Number(r.rows[0].n);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    stop = true;
    await Promise.all(clients);
    expect(ended).toBeGreaterThan(0);
    expect(answers.filter((s) => s < 300).length).toBeGreaterThan(0);
    expect(answers.filter((s) => s >= 300 && s !== 503)).toEqual([]);
    for (const body of bodies) expect(JSON.parse(body).error).toEqual({ code: 'DATABASE_UNAVAILABLE', message: ERRORS.databaseDown });
    expect(await until(create, 201, 5000)).toBeLessThan(5000);
  });
});

describe('the database not reachable', () => {
  it('is a 503 naming the database, readiness says so, and it serves again within 5 s of the database answering', async () => {
    await proxy.stop();
    try {
      const res = await create();
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error).toEqual({ code: 'DATABASE_UNAVAILABLE', message: ERRORS.databaseDown });
      const state = await built.app.inject({ url: '/api/ready' });
      expect(state.statusCode).toBe(503);
      expect(state.json().checks.database).toEqual({ ok: false, reason: 'database is not answering' });
      expect((await built.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await proxy.start();
    }
    expect(await until(create, 201, 5000)).toBeLessThan(5000);
    expect((await built.app.inject({ url: '/api/ready' })).statusCode).toBe(200);
  });
});
