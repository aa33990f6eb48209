import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realisticVariety } from '../../bench/variety-data.js';
import { loadConfig } from '../../server/config.js';
import { preparedStatementsOf } from '../../server/db/prepared-statements.js';
import { varietiesRepository } from '../../server/modules/content/varieties/repository.js';
import { searchPage } from '../../server/modules/content/varieties/search/search.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const base = Date.parse('2024-01-01T00:00:00Z');
  const rows = Array.from({ length: 60 }, (_, i) => realisticVariety(i, new Date(base + i * 60_000).toISOString()));
  await t.ctx.db.transaction().execute((trx) => varietiesRepository.insertMany(trx, rows));
});
afterAll(async () => {
  await t.close();
});

describe('the prepared statements of the search and the session lookup', () => {
  it('run on connections of their own, prepared once with one plan for any values; other queries are planned as usual', async () => {
    const statements = preparedStatementsOf(t.ctx.db)!;
    expect(statements).toBeDefined();
    // One connection, so the searches and the look at its statements meet on it.
    const client = await statements.connect();
    client.release();
    for (const term of ['nsic rc 1', 'camiling', 'tubigan 4', 'rc 12', 'ca', '2019', 'nsic']) {
      for (const page of [1, 2]) await searchPage(t.ctx.db, term, page, 20);
    }
    const me = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, me);
    for (let i = 0; i < 3; i += 1)
      expect((await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } })).statusCode).toBe(200);
    const onStatements = await statements.query<{ mode: string }>("select current_setting('plan_cache_mode') as mode");
    expect(onStatements.rows[0]!.mode).toBe('force_generic_plan');
    const prepared = await statements.query<{ name: string; generic: number; custom: number }>(
      "select name, generic_plans as generic, custom_plans as custom from pg_prepared_statements where name like 'palayan\\_%'",
    );
    expect(prepared.rows.length).toBeGreaterThan(2);
    const lookups = await statements.query<{ calls: number }>(
      'select generic_plans as calls from pg_prepared_statements where statement like \'%"sessionId"%\'',
    );
    expect(Number(lookups.rows[0]?.calls)).toBeGreaterThanOrEqual(3);
    expect(prepared.rows.every((r) => Number(r.custom) === 0 && Number(r.generic) > 0)).toBe(true);
    // Kysely's own connections keep the server's default.
    const { rows } = await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(t.ctx.db);
    expect(rows[0]!.plan_cache_mode).toBe('auto');
    // Inside a transaction a search runs on the transaction's connection, and sees its writes.
    await t.ctx.db.transaction().execute(async (trx) => {
      await varietiesRepository.insertMany(trx, [{ ...realisticVariety(500, new Date().toISOString()), varietyName: 'Uncommitted Zyx 1' }]);
      expect((await searchPage(trx, 'uncommitted zyx', 1, 20)).counted.total).toBe(1);
    });
  });

  it('run on POSTGRES_READ_CONNECTIONS connections: twice the cores (up to 10) unless set', () => {
    expect(preparedStatementsOf(t.ctx.db)!.options.max).toBe(t.ctx.config.postgresReadConnections);
    expect(loadConfig({}).postgresReadConnections).toBe(Math.min(10, 2 * os.availableParallelism()));
    expect(loadConfig({ POSTGRES_READ_CONNECTIONS: '3' }).postgresReadConnections).toBe(3);
    expect(loadConfig({ POSTGRES_READ_CONNECTIONS: '0' }).postgresReadConnections).toBe(1);
    expect(loadConfig({ POSTGRES_READ_CONNECTIONS: '500' }).postgresReadConnections).toBe(50);
    expect(() => loadConfig({ POSTGRES_READ_CONNECTIONS: 'many' })).toThrow(/whole number/);
  });
});
