import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../../server/app.js';
import { photoRuntime } from '../../../server/modules/content/photos/variants.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { stagePhotos } from '../../fixtures/catalog.js';
import { makeAccount } from '../../fixtures/factories.js';

/** Two instances on one database share the thumbnail queue through claims in the database. */
let a: TestApp;
let b: BuiltApp;
const variantWrites: Record<string, string[]> = { a: [], b: [] };

function countVariantWrites(app: BuiltApp, name: 'a' | 'b'): void {
  const put = app.ctx.storage.put.bind(app.ctx.storage);
  app.ctx.storage.put = async (key, body) => {
    if (key.endsWith('_display.jpg')) variantWrites[name]!.push(key);
    return put(key, body);
  };
}

beforeAll(async () => {
  a = await createTestApp({ instanceId: 'instance-a' });
  b = await buildApp({ ...a.ctx.config, instanceId: 'instance-b' }, { logger: false });
  await a.app.ready();
  await b.app.ready();
  countVariantWrites(a, 'a');
  countVariantWrites(b, 'b');
});
afterAll(async () => {
  await b.app.close();
  await a.close();
});

describe('the shared thumbnail queue', () => {
  it("makes every photo's variants exactly once when both instances try them all", async () => {
    const user = await makeAccount(a.ctx);
    // Staged through a context whose queue is stopped, so nothing starts before both know.
    const quiet = { ...a.ctx };
    await photoRuntime(quiet).stop();
    const ids = await stagePhotos(quiet, 'pest', user, 12);
    // Both instances are told about every photo at once (as after a restart of both).
    for (const id of ids) {
      photoRuntime(a.ctx).queue.push(id);
      photoRuntime(b.ctx).queue.push(id);
    }
    await Promise.all([photoRuntime(a.ctx).queue.idle(), photoRuntime(b.ctx).queue.idle()]);
    const rows = await a.ctx.db.selectFrom('catalog_images').select(['id', 'status', 'claimedBy']).where('id', 'in', ids).execute();
    expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'ready'));
    const written = [...variantWrites.a!, ...variantWrites.b!].filter((k) => ids.some((id) => k.includes(id)));
    expect(written).toHaveLength(ids.length);
    expect(new Set(written).size).toBe(ids.length);
    expect(new Set(rows.map((r) => r.claimedBy))).toEqual(
      new Set(['instance-a', 'instance-b'].filter((n) => rows.some((r) => r.claimedBy === n))),
    );
  });

  it('takes over a photo whose claim outlived its lease (the instance died), and leaves a live claim alone', async () => {
    const user = await makeAccount(a.ctx);
    await photoRuntime(a.ctx).stop();
    const [dead, held] = await stagePhotos(a.ctx, 'pest', user, 2);
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 10 * 60_000).toISOString();
    await a.ctx.db.updateTable('catalog_images').set({ claimedBy: 'instance-gone', claimedUntil: past }).where('id', '=', dead!).execute();
    await a.ctx.db
      .updateTable('catalog_images')
      .set({ claimedBy: 'instance-busy', claimedUntil: future })
      .where('id', '=', held!)
      .execute();
    await photoRuntime(b.ctx).sweep();
    await photoRuntime(b.ctx).queue.idle();
    const status = async (id: string) =>
      await a.ctx.db.selectFrom('catalog_images').select(['status', 'claimedBy']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await status(dead!)).toEqual({ status: 'ready', claimedBy: 'instance-b' });
    expect(await status(held!)).toEqual({ status: 'pending', claimedBy: 'instance-busy' });
  });
});
