import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackup, verifyBackup } from '../../server/platform/storage/backup.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

/** The restore drill on both engines: a backup restored into a scratch place matches what it recorded. */
let t: TestApp;
let out: string;
beforeAll(async () => {
  t = await createTestApp();
  out = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-verify-test-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(out, { recursive: true, force: true });
});

// On PostgreSQL the check restores into a scratch database and drops it, and DROP DATABASE waits
// for an immediate checkpoint: on a loaded machine that is the disk's time, not a fixed one.
describe('restore --verify', { timeout: 120_000 }, () => {
  it('records rows per table, the audit head and file hashes, and finds them again in a scratch restore', async () => {
    const acc = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    await loginAs(t.app, acc);
    await t.ctx.db
      .insertInto('rice_seed_varieties')
      .values({ id: 'v-verify', varietyName: 'NSIC Rc 480', season: '["Wet"]', environment: '[]', createdAt: new Date().toISOString() })
      .execute();
    await t.ctx.storage.put('rice_pests/Stem borer/1_0_a.jpg', Buffer.from(Array.from({ length: 4000 }, (_, i) => i % 253)));
    const manifest = await createBackup(t.ctx.config, path.join(out, 'good'));
    expect(manifest.counts?.rice_seed_varieties).toBeGreaterThanOrEqual(1);
    expect(manifest.counts?.accounts).toBeGreaterThanOrEqual(1);
    expect(Object.keys(manifest.fileHashes ?? {})).toContain('files/rice_pests/Stem borer/1_0_a.jpg');

    const checks = await verifyBackup(t.ctx.config, path.join(out, 'good'));
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.map((c) => c.check)).toEqual(expect.arrayContaining(['rows of rice_seed_varieties', 'audit chain head', 'file hashes']));

    // A changed photo in the backup is found.
    fs.writeFileSync(path.join(out, 'good', 'files', 'rice_pests', 'Stem borer', '1_0_a.jpg'), 'tampered');
    const tampered = await verifyBackup(t.ctx.config, path.join(out, 'good'));
    expect(tampered.find((c) => c.check === 'file hashes')).toMatchObject({ ok: false });
  });

  it('finds a backup whose database does not hold what its manifest says', async () => {
    await createBackup(t.ctx.config, path.join(out, 'edited'));
    const file = path.join(out, 'edited', 'manifest.json');
    const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { counts: Record<string, number> };
    manifest.counts.rice_seed_varieties = (manifest.counts.rice_seed_varieties ?? 0) + 1;
    fs.writeFileSync(file, JSON.stringify(manifest));
    const checks = await verifyBackup(t.ctx.config, path.join(out, 'edited'));
    expect(checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['rows of rice_seed_varieties']);
  });
});
