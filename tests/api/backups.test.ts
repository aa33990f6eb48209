import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { createBackupsService } from '../../server/modules/operations/backups/service.js';
import { S3Storage } from '../../server/platform/storage/s3-storage.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { expectPrivateTree } from '../fixtures/file-modes.js';
import { startS3, type TestS3 } from '../fixtures/s3.js';

const HOUR = 60 * 60_000;
let target: string;
let t: TestApp;
beforeAll(async () => {
  target = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-scheduled-'));
  t = await createTestApp({ backupTarget: target, backupEveryHours: 6, backupKeep: 2 });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(target, { recursive: true, force: true });
});

const status = async (cookie: string) => t.app.inject({ url: '/api/backups/status', headers: { cookie } });

describe('scheduled backups to a folder', () => {
  it('makes one backup a slot across instances, keeps the newest BACKUP_KEEP, privately, and says how old the last good one is', async () => {
    const boss = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
    const admin = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
    expect((await status(admin)).statusCode).toBe(403);
    expect((await status(boss)).json()).toMatchObject({ configured: true, everyHours: 6, lastGood: null, stale: false, lastFailure: null });

    // Two instances find the same slot due at once: one backup.
    const one = createBackupsService(t.ctx);
    const two = createBackupsService({ ...t.ctx, config: { ...t.ctx.config, instanceId: 'other' } });
    const start = Date.now();
    await Promise.all([one.runDue(new Date(start)), two.runDue(new Date(start))]);
    expect(fs.readdirSync(target)).toHaveLength(1);
    // Two later slots: the oldest backup goes.
    await one.runDue(new Date(start + 6 * HOUR));
    await one.runDue(new Date(start + 12 * HOUR));
    const kept = fs.readdirSync(target).sort();
    expect(kept).toHaveLength(2);
    for (const name of kept) expect(fs.existsSync(path.join(target, name, 'manifest.json'))).toBe(true);
    expectPrivateTree(path.join(target, kept[0]!));

    const now = (await status(boss)).json();
    expect(now).toMatchObject({ configured: true, stale: false, lastFailure: null });
    expect(now.lastGood.location).toBe(path.join(target, kept[1]!));
    expect(await one.status(Date.now() + 13 * HOUR)).toMatchObject({ stale: true });
  });

  it('records a failed backup and says so', async () => {
    const blocked = path.join(target, 'not-a-folder');
    fs.writeFileSync(blocked, 'x');
    const service = createBackupsService({ ...t.ctx, config: { ...t.ctx.config, backupTarget: blocked } });
    await service.runDue(new Date(Date.now() + 100 * HOUR));
    const s = await service.status();
    expect(s.lastFailure?.error).toBeTruthy();
  });
});

describe('scheduled backups to a bucket', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3('palayan-backups');
  });
  afterAll(async () => {
    await s3.close();
  });

  it('sends each backup to s3://bucket/prefix and keeps the newest BACKUP_KEEP there', async () => {
    const config = {
      ...t.ctx.config,
      s3: { ...s3.settings, bucket: 'palayan-photos-elsewhere' },
      backupTarget: 's3://palayan-backups/nightly',
      backupKeep: 1,
    };
    const service = createBackupsService({ ...t.ctx, config });
    const start = Date.now() + 200 * HOUR;
    await service.runDue(new Date(start));
    await service.runDue(new Date(start + 6 * HOUR));
    const store = new S3Storage(s3.settings);
    const keys: string[] = [];
    for await (const { key } of store.list('nightly/')) keys.push(key);
    store.close();
    const folders = new Set(keys.map((k) => k.split('/')[1]));
    expect(folders.size).toBe(1);
    expect(keys.some((k) => k.endsWith('/manifest.json'))).toBe(true);
    expect((await service.status()).lastGood?.location).toMatch(/^s3:\/\/palayan-backups\/nightly\/palayan-/);
    expect(fs.readdirSync(path.join(t.ctx.config.dataDir, 'tmp')).filter((n) => n.startsWith('palayan-'))).toEqual([]);
  });

  it('refuses the photo bucket as the target', () => {
    expect(() => loadConfig({ S3_BUCKET: 'photos', BACKUP_TARGET: 's3://photos/backups' }, {})).toThrow(/other than the photo bucket/);
  });
});
