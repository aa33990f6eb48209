import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createBackup, restoreBackup } from '../../server/platform/storage/backup.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { expectPrivateTree, withOpenUmask } from '../fixtures/file-modes.js';
import { expectRestoredFrom } from '../fixtures/maintenance.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

// Runs in the SQLite project only (the file copy route); backup.pg.test.ts is the pg_dump route.
describe('backup and restore (SQLite)', () => {
  it('restores into an empty data folder with identical records and files, taken while the server runs', async () => {
    const acc = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    await loginAs(t.app, acc);
    await t.ctx.db
      .insertInto('rice_seed_varieties')
      .values({ id: 'v1', varietyName: 'NSIC Rc 222', season: '["Dry"]', environment: '[]', createdAt: new Date().toISOString() })
      .execute();
    const photo = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    await t.ctx.storage.put('rice_pests/Rice bug/1_0_a.jpg', photo);
    await t.ctx.storage.put('avatars/x/avatar_1.jpg', Buffer.from('avatar'));

    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-backup-'));
    const manifest = await createBackup(t.ctx.config, path.join(out, 'b1'));
    expect(manifest).toMatchObject({ engine: 'sqlite', files: 2 });

    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-restore-'));
    const config = loadConfig({}, { dataDir: target, logLevel: 'silent' });
    await restoreBackup(config, path.join(out, 'b1'));
    const restored = await buildApp(config, { logger: false });
    try {
      await expectRestoredFrom(restored, t.ctx, { key: 'rice_pests/Rice bug/1_0_a.jpg', bytes: photo }, acc);
    } finally {
      await restored.app.close();
      fs.rmSync(out, { recursive: true, force: true });
      fs.rmSync(target, { recursive: true, force: true });
    }
  });

  it('writes its folders 0700 and its files 0600 whatever the umask, an existing folder of ours included', async () => {
    await t.ctx.storage.put('rice_diseases/Blast/deep/1_0_b.jpg', Buffer.from('photo'));
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-backup-'));
    try {
      await withOpenUmask(async () => {
        await createBackup(t.ctx.config, path.join(out, 'new', 'b3'));
        const existing = path.join(out, 'existing');
        fs.mkdirSync(existing, { mode: 0o777 });
        fs.chmodSync(existing, 0o777);
        await createBackup(t.ctx.config, existing);
      });
      for (const dir of [path.join(out, 'new', 'b3'), path.join(out, 'existing')]) {
        const files = expectPrivateTree(dir);
        expect(files).toEqual(
          expect.arrayContaining(['palayan.sqlite', 'manifest.json', path.join('files', 'rice_diseases', 'Blast', 'deep', '1_0_b.jpg')]),
        );
      }
      expect(fs.statSync(path.join(out, 'new')).mode & 0o777).toBe(0o700);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it('refuses to overwrite an existing database without --force, and a folder that is not a backup', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-backup-'));
    await createBackup(t.ctx.config, path.join(out, 'b2'));
    await expect(restoreBackup(t.ctx.config, path.join(out, 'b2'))).rejects.toThrow(/--force/);
    await expect(restoreBackup(t.ctx.config, out)).rejects.toThrow(/not a backup/);
    fs.rmSync(out, { recursive: true, force: true });
  });
});
