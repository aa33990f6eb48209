import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertSafeKey, safeSegment } from '../../../server/platform/storage/storage.js';
import { fileUrl } from '../../../server/platform/storage/storage.js';
import { createTestApp, type TestApp } from '../../fixtures/app.js';
import { loginAs, makeAccount } from '../../fixtures/factories.js';
import { entryBody, stagePhotos, tinyPng } from '../../fixtures/catalog.js';
import { CATALOG_KINDS } from '../../../common/catalog.js';
import { catalogCreateSchema } from '../../../common/schemas/catalog.js';
import { createCatalogService } from '../../../server/modules/content/catalog/service.js';
import { createProfileService, STAGED_AVATAR_TTL_MS } from '../../../server/modules/identity/profile/service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('storage and file serving', () => {
  it('makes any name one safe path segment', () => {
    const segment = safeSegment('../../etc/passwd');
    expect(segment).not.toContain('/');
    expect(() => assertSafeKey(`rice_pests/${segment}/x.jpg`)).not.toThrow();
    expect(safeSegment('..')).toBe('file');
    expect(safeSegment('Rice bug / Leptocorisa')).toBe('Rice bug _ Leptocorisa');
    expect(() => assertSafeKey('a/../b')).toThrow();
    expect(() => assertSafeKey('/etc/passwd')).toThrow();
    expect(() => assertSafeKey('a\\b')).toThrow();
  });

  it('serves a stored image to signed-in staff only, with a long cache lifetime', async () => {
    const owner = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const [id] = await stagePhotos(t.ctx, 'pest', owner, 1);
    await createCatalogService(t.ctx, CATALOG_KINDS.pest).create(
      catalogCreateSchema(CATALOG_KINDS.pest).parse(entryBody(`Rice bug ${Date.now()}`, [id!])),
      owner,
      { skipImageMinimum: true },
    );
    const key = (await t.ctx.db.selectFrom('catalog_images').select('originalKey').where('id', '=', id!).executeTakeFirstOrThrow())
      .originalKey!;
    const url = fileUrl(key);
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const cookie = await loginAs(t.app, await makeAccount(t.ctx));
    const res = await t.app.inject({ url, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toContain('immutable');
    const stored = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      void t.ctx.storage.get(key).then((s) =>
        s
          .on('data', (c: Buffer) => chunks.push(c))
          .on('end', () => resolve(Buffer.concat(chunks)))
          .on('error', reject),
      );
    });
    expect(res.rawPayload.equals(stored)).toBe(true);
  });

  it('never serves a path outside the storage folder', async () => {
    const cookie = await loginAs(t.app, await makeAccount(t.ctx));
    for (const url of [
      '/api/files/..%2F..%2Fpalayan.sqlite',
      '/api/files/%2Fetc%2Fpasswd',
      '/api/files/a/%2E%2E/%2E%2E/x.png',
      '/api/files/%E0%A4%A',
    ]) {
      const res = await t.app.inject({ url, headers: { cookie } });
      expect([400, 404]).toContain(res.statusCode);
    }
  });
});

describe('who a stored file is for', () => {
  const get = async (key: string, cookie: string) => (await t.app.inject({ url: fileUrl(key), headers: { cookie } })).statusCode;

  it("a staged photo is its uploader's until it joins an entry; a key no photo names is not served", async () => {
    const uploader = await makeAccount(t.ctx, { role: 'ADMIN' });
    const [id] = await stagePhotos(t.ctx, 'pest', uploader, 1);
    const row = await t.ctx.db.selectFrom('catalog_images').select(['originalKey']).where('id', '=', id!).executeTakeFirstOrThrow();
    const mine = await loginAs(t.app, uploader);
    const other = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
    expect(await get(row.originalKey!, mine)).toBe(200);
    expect(await get(row.originalKey!, other)).toBe(404);
    await createCatalogService(t.ctx, CATALOG_KINDS.pest).create(
      catalogCreateSchema(CATALOG_KINDS.pest).parse(entryBody(`Stem borer ${Date.now()}`, [id!])),
      uploader,
      { skipImageMinimum: true },
    );
    const linked = await t.ctx.db.selectFrom('catalog_images').select(['originalKey']).where('id', '=', id!).executeTakeFirstOrThrow();
    expect(await get(linked.originalKey!, other)).toBe(200);
    await t.ctx.storage.put('rice_pests/Loose/1_0_loose.png', Buffer.from('89504e470d0a1a0a', 'hex'));
    expect(await get('rice_pests/Loose/1_0_loose.png', other)).toBe(404);
  });

  it("an unsaved profile picture is its owner's alone, anyone's once saved, and removed after a day unsaved", async () => {
    const acc = await makeAccount(t.ctx);
    const cookie = await loginAs(t.app, acc);
    const other = await loginAs(t.app, await makeAccount(t.ctx));
    const upload = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/profile/avatar',
          headers: { cookie, 'content-type': 'image/png' },
          payload: await tinyPng(64),
        })
      ).json().avatarKey as string;
    const saved = await upload();
    const abandoned = await upload();
    expect([await get(saved, cookie), await get(saved, other)]).toEqual([200, 404]);
    const p = (await t.app.inject({ url: '/api/profile', headers: { cookie } })).json();
    const save = await t.app.inject({
      method: 'PUT',
      url: '/api/profile',
      headers: { cookie },
      payload: {
        fullname: p.fullname,
        email: p.email ?? '',
        contactNo: '',
        securityQuestion: '',
        securityAnswer: '',
        keepAnswer: false,
        version: p.version,
        avatarKey: saved,
      },
    });
    expect(save.statusCode, save.body).toBe(200);
    expect(await get(saved, other)).toBe(200);
    expect(await get(abandoned, other)).toBe(404);

    const profile = createProfileService(t.ctx);
    expect(await profile.sweepStagedAvatars()).toBe(0);
    expect(await profile.sweepStagedAvatars(Date.now() + STAGED_AVATAR_TTL_MS + 1000)).toBeGreaterThanOrEqual(1);
    expect(await t.ctx.storage.stat(abandoned)).toBeNull();
    expect(await t.ctx.storage.stat(saved)).not.toBeNull();
    expect(await get(saved, other)).toBe(200);
  });
});
