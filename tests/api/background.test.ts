import crypto from 'node:crypto';
import { expressionBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_LIMITS } from '../../common/models.js';
import { buildApp, type BuiltApp } from '../../server/app.js';
import type { Database } from '../../server/db/types.js';
import { modelsRepository } from '../../server/modules/farmer-app/models/repository.js';
import { lease } from '../../server/platform/background/lease.js';
import { periodStart, takePeriodSlot } from '../../server/platform/background/period-slot.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';

/**
 * The background primitives on a real database, with two instances (two apps, each with its own
 * connections) on the same one: a lease on work items and a once-per-period slot. The apps are
 * never made ready, so no job of theirs runs meanwhile.
 */
let a: TestApp;
let b: BuiltApp;
beforeAll(async () => {
  a = await createTestApp({ instanceId: 'instance-a' });
  b = await buildApp({ ...a.ctx.config, instanceId: 'instance-b' }, { logger: false });
});
afterAll(async () => {
  await b.app.close();
  await a.close();
});

const TTL = 60_000;
/** A lease on evaluation rows in a state no runner looks at, running out at the time it holds. */
const testLease = lease({ table: 'model_evaluations', key: 'id', holder: 'claimedBy', time: 'heartbeatAt', timeIs: 'until', ttlMs: TTL });

async function item(state = 'test-item', holder: string | null = null, heartbeatAt: string | null = null): Promise<string> {
  const id = crypto.randomUUID();
  await a.ctx.db
    .insertInto('model_evaluations')
    .values({
      id,
      modelId: 'none',
      state,
      split: 'all',
      seed: 'x',
      ratios: '{}',
      photoSetSha256: 'x',
      contractSha256: 'x',
      photoIds: '[]',
      total: 0,
      done: 0,
      cancelRequested: 0,
      claimedBy: holder,
      heartbeatAt,
      accuracy: null,
      macroF1: null,
      error: null,
      createdBy: null,
      createdAt: new Date().toISOString(),
      finishedAt: null,
    })
    .execute();
  return id;
}
const holderOf = (id: string) =>
  a.ctx.db.selectFrom('model_evaluations').select(['claimedBy', 'heartbeatAt']).where('id', '=', id).executeTakeFirstOrThrow();

describe('the lease', () => {
  it('gives an item to exactly one of many claimers at once, across two instances', async () => {
    for (let round = 0; round < 10; round += 1) {
      const id = await item();
      const claimers = Array.from({ length: 8 }, (_, i) => ({ db: i % 2 ? b.ctx.db : a.ctx.db, name: `claimer-${i}` }));
      const won = await Promise.all(claimers.map((c) => testLease.claim(c.db, id, c.name)));
      expect(won.filter(Boolean)).toHaveLength(1);
      expect((await holderOf(id)).claimedBy).toBe(claimers[won.indexOf(true)]!.name);
    }
  });

  it("is taken over once it ran out; the stale holder's renewal and release are then refused and change nothing", async () => {
    const id = await item();
    const now = Date.now();
    expect(await testLease.claim(a.ctx.db, id, 'a', {}, now)).toBe(true);
    expect(await testLease.claim(b.ctx.db, id, 'b', {}, now + TTL / 2)).toBe(false);
    expect(await testLease.claim(b.ctx.db, id, 'b', {}, now + TTL + 1)).toBe(true);
    const taken = await holderOf(id);
    expect(taken).toEqual({ claimedBy: 'b', heartbeatAt: new Date(now + 2 * TTL + 1).toISOString() });
    expect(await testLease.renew(a.ctx.db, id, 'a', {}, now + TTL + 2)).toBe(false);
    expect(await testLease.release(a.ctx.db, id, 'a')).toBe(false);
    expect(await testLease.claim(a.ctx.db, id, 'a', {}, now + TTL + 3)).toBe(false);
    expect(await holderOf(id)).toEqual(taken);
    expect(await testLease.renew(b.ctx.db, id, 'b', {}, now + TTL + 4)).toBe(true);
    expect(await testLease.release(b.ctx.db, id, 'b')).toBe(true);
    expect(await holderOf(id)).toEqual({ claimedBy: null, heartbeatAt: null });
  });

  it("gives a holder that lost track of its item the item back, and keeps conditions of the item's own", async () => {
    const id = await item();
    expect(await testLease.claim(a.ctx.db, id, 'a')).toBe(true);
    expect(await testLease.claim(a.ctx.db, id, 'a')).toBe(true);
    const elsewhere = { where: expressionBuilder<Database, 'model_evaluations'>()('state', '=', 'another-state') };
    expect(await testLease.release(a.ctx.db, id, 'a', elsewhere)).toBe(false);
    expect(await testLease.release(a.ctx.db, id, 'a', { set: { state: 'released' } })).toBe(true);
    expect((await a.ctx.db.selectFrom('model_evaluations').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state).toBe(
      'released',
    );
  });

  it("after a restart, an evaluation whose instance died is taken over once its heartbeat is stale, and the dead one's beat is refused", async () => {
    const dying = await buildApp({ ...a.ctx.config, instanceId: 'instance-dying' }, { logger: false });
    const id = await item('queued');
    expect(await modelsRepository.claim(dying.ctx.db, 'instance-dying')).toBe(id);
    expect(await modelsRepository.beat(dying.ctx.db, id, 'instance-dying', 3, new Date().toISOString())).toBe(true);
    await dying.app.close();

    const restarted = await buildApp({ ...a.ctx.config, instanceId: 'instance-restarted' }, { logger: false });
    try {
      expect(await modelsRepository.claim(restarted.ctx.db, 'instance-restarted')).toBeNull();
      const later = Date.now() + MODEL_LIMITS.staleAfterMs + 1000;
      expect(await modelsRepository.claim(restarted.ctx.db, 'instance-restarted', later)).toBe(id);
      expect(await modelsRepository.beat(a.ctx.db, id, 'instance-dying', 4, new Date(later).toISOString())).toBe(false);
      await modelsRepository.release(a.ctx.db, id, 'instance-dying');
      expect(
        await a.ctx.db
          .selectFrom('model_evaluations')
          .select(['state', 'claimedBy', 'done'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow(),
      ).toEqual({ state: 'running', claimedBy: 'instance-restarted', done: 3 });
    } finally {
      await a.ctx.db.deleteFrom('model_evaluations').where('id', '=', id).execute();
      await restarted.app.close();
    }
  });
});

describe('the period slot', () => {
  const HOUR = 60 * 60_000;

  it('gives a period to exactly one of many takers at once, across two instances', async () => {
    const start = periodStart(Date.now(), HOUR);
    for (let round = 0; round < 10; round += 1) {
      const job = `test job ${round}`;
      const won = await Promise.all(
        Array.from({ length: 8 }, (_, i) => takePeriodSlot(i % 2 ? b.ctx.db : a.ctx.db, job, `taker-${i}`, start)),
      );
      expect(won.filter(Boolean)).toHaveLength(1);
    }
  });

  it('is not taken again in its period after a restart, and is taken for the next period; an earlier one is refused', async () => {
    const now = Date.now();
    const first = await buildApp({ ...a.ctx.config, instanceId: 'instance-first' }, { logger: false });
    expect(await takePeriodSlot(first.ctx.db, 'restarted job', 'instance-first', periodStart(now, HOUR))).toBe(true);
    await first.app.close();

    const restarted = await buildApp({ ...a.ctx.config, instanceId: 'instance-restarted' }, { logger: false });
    try {
      expect(await takePeriodSlot(restarted.ctx.db, 'restarted job', 'instance-restarted', periodStart(now, HOUR))).toBe(false);
      expect(await takePeriodSlot(restarted.ctx.db, 'restarted job', 'instance-restarted', periodStart(now + HOUR, HOUR))).toBe(true);
      expect(await takePeriodSlot(restarted.ctx.db, 'restarted job', 'instance-restarted', periodStart(now - HOUR, HOUR))).toBe(false);
      const row = await a.ctx.db
        .selectFrom('period_slots')
        .select(['holder', 'periodStart'])
        .where('job', '=', 'restarted job')
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ holder: 'instance-restarted', periodStart: periodStart(now + HOUR, HOUR) });
    } finally {
      await restarted.app.close();
    }
  });

  it('takes a rolling period: again only once the last one started long enough ago', async () => {
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(await takePeriodSlot(a.ctx.db, 'rolling job', 'a', iso(now), iso(now - HOUR))).toBe(true);
    expect(await takePeriodSlot(b.ctx.db, 'rolling job', 'b', iso(now + HOUR / 2), iso(now - HOUR / 2))).toBe(false);
    expect(await takePeriodSlot(b.ctx.db, 'rolling job', 'b', iso(now + HOUR), iso(now + 1))).toBe(true);
  });
});
