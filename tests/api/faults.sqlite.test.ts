import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/texts.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { varietyBody } from '../fixtures/varieties.js';

/** A full disk, as SQLite meets it: the database file may not grow (max_page_count). */
let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
  t = await createTestApp({ logLevel: 'error', sqliteReadWorkers: 0 }, { logStream: stream });
});
afterAll(async () => {
  await t.close();
});

describe('the disk full', () => {
  it('is a 507 naming the disk, with SQLITE_FULL in the log, nothing half-written, and saves again once there is room', async () => {
    const cookie = await loginAs(t.app, await makeAccount(t.ctx));
    const create = () =>
      t.app.inject({ method: 'POST', url: '/api/varieties', headers: { cookie }, payload: varietyBody({ location: 'x'.repeat(200) }) });
    const pages = Number((await sql<{ page_count: number }>`pragma page_count`.execute(t.ctx.db)).rows[0]!.page_count);
    await sql.raw(`pragma max_page_count = ${pages}`).execute(t.ctx.db);
    const before = await t.ctx.db
      .selectFrom('rice_seed_varieties')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    let full: Awaited<ReturnType<typeof create>> | undefined;
    let saved = 0;
    for (let i = 0; i < 300 && !full; i += 1) {
      const res = await create();
      if (res.statusCode === 201) saved += 1;
      else full = res;
    }
    expect(full?.statusCode, full?.body).toBe(507);
    expect(full!.json().error).toEqual({ code: 'DISK_FULL', message: ERRORS.diskFull });
    const log = lines.join('');
    expect(log).toContain('SQLITE_FULL');
    expect(log).not.toContain('cannot rollback');
    // Each 201 has its row; the refused one left none.
    const after = await t.ctx.db
      .selectFrom('rice_seed_varieties')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n) - Number(before.n)).toBe(saved);
    expect((await sql<{ integrity_check: string }>`pragma integrity_check`.execute(t.ctx.db)).rows[0]!.integrity_check).toBe('ok');

    await sql.raw('pragma max_page_count = 1073741823').execute(t.ctx.db);
    expect((await create()).statusCode).toBe(201);
  });
});
