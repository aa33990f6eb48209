import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createBackup, restoreBackup } from '../../server/platform/storage/backup.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { makeAccount } from '../fixtures/factories.js';
import { expectPrivateTree, withOpenUmask } from '../fixtures/file-modes.js';
import { expectRestoredFrom } from '../fixtures/maintenance.js';

let t: TestApp;
/** Databases a test made: dropped after the file, not inside the test (see afterAll). */
const made: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
});
// PostgreSQL's DROP DATABASE waits for an immediate checkpoint, and one that must first finish a
// checkpoint already under way (every file the suite's schemas wrote, synced to disk) takes as
// long as the disk needs on a loaded machine: longer than a test's limit. So the drop is here,
// with a limit of its own, and the test's own time is the backup and the restore.
afterAll(async () => {
  await t.close();
  if (made.length === 0) return;
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    for (const name of made) await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}, 180_000);

// Runs in the PostgreSQL project only (the pg_dump route); backup.sqlite.test.ts is the file copy route.
describe('backup and restore (PostgreSQL, pg_dump route)', () => {
  it('restores into an empty database and data folder with identical records and files', async () => {
    const pg = (await import('pg')).default;
    const acc = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    await t.ctx.db
      .insertInto('rice_seed_varieties')
      .values({ id: 'v1', varietyName: 'NSIC Rc 222', season: '["Dry"]', environment: '[]', createdAt: new Date().toISOString() })
      .execute();
    const photo = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 251));
    await t.ctx.storage.put('rice_pests/Rice bug/1_0_a.jpg', photo);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-backup-'));
    const manifest = await withOpenUmask(() => createBackup(t.ctx.config, path.join(out, 'b1')));
    expect(manifest).toMatchObject({ engine: 'postgres', files: 1 });
    // The dump holds password hashes, two-step secrets and signing keys: 0700 folders, 0600 files.
    expect(expectPrivateTree(path.join(out, 'b1'))).toEqual(
      expect.arrayContaining(['database.pgdump', 'manifest.json', path.join('files', 'rice_pests', 'Rice bug', '1_0_a.jpg')]),
    );

    const dbName = `palayan_restore_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    made.push(dbName);
    const schema = /search_path=(\w+)/.exec(decodeURIComponent(t.ctx.config.databaseUrl!))![1]!;
    const base = new URL(process.env.TEST_DATABASE_URL!);
    base.pathname = `/${dbName}`;
    const url = `${base.toString()}${base.search ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-restore-'));
    const config = loadConfig({}, { dataDir: target, databaseUrl: url, logLevel: 'silent', eventChannel: `restore_${dbName}` });
    try {
      await restoreBackup(config, path.join(out, 'b1'));
      const restored = await buildApp(config, { logger: false });
      try {
        await expectRestoredFrom(restored, t.ctx, { key: 'rice_pests/Rice bug/1_0_a.jpg', bytes: photo }, acc);
      } finally {
        await restored.app.close();
      }
    } finally {
      // The restored app's pool ends its connections asynchronously after close(); dropping the
      // database with (force) while one is still ending kills it with FATAL 57P01, an error
      // event no one listens for any more (an unhandled error that failed a whole run). Wait
      // until the server has let them go.
      for (let i = 0; i < 100; i += 1) {
        const open = await admin.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where datname = $1', [dbName]);
        if (open.rows[0]!.n === 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await admin.end();
      fs.rmSync(out, { recursive: true, force: true });
      fs.rmSync(target, { recursive: true, force: true });
    }
  });
});
