import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFirestoreExport } from '../../server/modules/operations/migration/importer.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';

const PNG = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3a7d44' } })
  .png()
  .toBuffer();
const JPEG = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#8a5a2b' } })
  .jpeg()
  .toBuffer();

let t: TestApp;
let server: http.Server;
let exportJson: unknown;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/blackbug.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
      return;
    }
    if (req.url === '/blast.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(JPEG);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  exportJson = JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, '../fixtures/firestore-export.json'), 'utf8').replaceAll('{{IMAGE_BASE}}', base),
  );
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
  server.close();
});

describe('import of a Firebase export', () => {
  it('reports what it would do on a dry run and writes nothing', async () => {
    const report = await importFirestoreExport(t.ctx, exportJson, { dryRun: true, fetchImages: true, allowPrivateAddresses: true });
    expect(report.counts.accounts).toMatchObject({ created: 3 });
    expect(report.counts.audit_logs).toMatchObject({ created: 3 });
    const accounts = await t.ctx.db.selectFrom('accounts').select('id').execute();
    expect(accounts).toHaveLength(0);
    expect(await t.ctx.db.selectFrom('audit_logs').select('id').execute()).toHaveLength(0);
  });

  it('imports every collection keeping ids, deletions, alternate audit fields and hashing secrets', async () => {
    const report = await importFirestoreExport(t.ctx, exportJson, { fetchImages: true, allowPrivateAddresses: true, fetchTimeoutMs: 2000 });
    expect(report.counts).toEqual({
      maintenance: { created: 0, updated: 2, unchanged: 0, skipped: 0 },
      accounts: { created: 3, updated: 0, unchanged: 0, skipped: 0 },
      rice_seed_varieties: { created: 2, updated: 0, unchanged: 0, skipped: 0 },
      rice_local_pests: { created: 2, updated: 0, unchanged: 0, skipped: 0 },
      rice_local_diseases: { created: 1, updated: 0, unchanged: 0, skipped: 0 },
      audit_logs: { created: 3, updated: 0, unchanged: 0, skipped: 0 },
    });
    expect(report.images.fetched).toBe(2);
    expect(report.images.external).toEqual([expect.stringContaining('http://127.0.0.1:9/unreachable.jpg')]);
    expect(report.problems).toEqual([expect.stringContaining('audit_logs/log_performed')]);

    const rosa = await t.ctx.db.selectFrom('accounts').selectAll().where('id', '=', 'acc_legacy_01').executeTakeFirstOrThrow();
    expect(rosa.password.startsWith('$2')).toBe(true);
    expect(rosa.securityAnswer?.startsWith('$2')).toBe(true);
    expect(rosa.role).toBe('ADMIN'); // 'super admin' is not a known role text; SPEC's normalisation defaults it.
    expect(rosa.lastLogin).toBe('2025-01-01T00:00:00.500Z');
    expect(rosa.currentSession).toBeNull();
    const carlo = await t.ctx.db.selectFrom('accounts').selectAll().where('id', '=', 'acc_hashed_02').executeTakeFirstOrThrow();
    expect(carlo).toMatchObject({
      status: 'restricted',
      isRestricted: 1,
      password: '$2b$10$9vJ8nQ1yq0mZ0p5l7mCqUe3b5p1t2z8b1Qk1o2x3y4z5a6b7c8d9e',
    });

    const variety = await t.ctx.db.selectFrom('rice_seed_varieties').selectAll().where('id', '=', 'var_rc222').executeTakeFirstOrThrow();
    expect(variety).toMatchObject({ maxYield: 10, season: '["Dry","Wet"]', recommendedInTarlac: 1, createdAt: '2024-01-02T00:00:00.000Z' });
    const gone = await t.ctx.db.selectFrom('rice_seed_varieties').selectAll().where('id', '=', 'var_deleted').executeTakeFirstOrThrow();
    expect(gone).toMatchObject({ isDeleted: 1, season: '["Wet"]', environment: '["Rainfed Lowland"]', recommendedInTarlac: 0 });
    const deletedPest = await t.ctx.db
      .selectFrom('rice_local_pests')
      .selectAll()
      .where('id', '=', 'pest_deleted')
      .executeTakeFirstOrThrow();
    expect(deletedPest.isDeleted).toBe(1);

    const images = await t.ctx.db
      .selectFrom('catalog_images')
      .selectAll()
      .where('entryId', '=', 'pest_blackbug')
      .orderBy('position')
      .execute();
    expect(images.map((i) => i.status)).toEqual(['pending', 'external']);
    const stored = fs.readFileSync(t.ctx.storage.localPath(images[0]!.originalKey!));
    expect(stored.equals(PNG)).toBe(true);
    expect(images[0]!.originalKey!.startsWith('rice_pests/Rice black bug/')).toBe(true);

    const actorLog = await t.ctx.db.selectFrom('audit_logs').selectAll().where('id', '=', 'log_actor').executeTakeFirstOrThrow();
    expect(actorLog).toMatchObject({ actorId: 'acc_legacy_01', name: 'Rice black bug', userId: null, documentName: null });
    const performed = await t.ctx.db.selectFrom('audit_logs').selectAll().where('id', '=', 'log_performed').executeTakeFirstOrThrow();
    expect(performed).toMatchObject({ performedBy: 'acc_legacy_01', timestamp: 'not a date' });
    const modern = await t.ctx.db.selectFrom('audit_logs').selectAll().where('id', '=', 'log_modern').executeTakeFirstOrThrow();
    expect(JSON.parse(modern.changes!)).toEqual({
      before: { maxYield: 9.5 },
      after: { maxYield: 10, updatedAt: '2025-01-02T00:00:00.000Z' },
    });

    const options = await t.ctx.db.selectFrom('maintenance').selectAll().where('id', '=', 'accounts_enums').executeTakeFirstOrThrow();
    expect(JSON.parse(options.data).securityQuestions).toHaveLength(2);
  });

  it('lets an imported account with a legacy plain-text password sign in', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: 'rosa.dizon@tarlac.example', password: 'Legacy#2024' },
    });
    expect(res.statusCode).toBe(200);
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { identifier: 'oldaccount', password: 'Gone#12345' },
    });
    expect(blocked.json().error.code).toBe('ACCOUNT_DELETED');
  });

  it('changes nothing when run a second time', async () => {
    const auditBefore = (await t.ctx.db.selectFrom('audit_logs').select('id').execute()).length;
    const passwordBefore = (
      await t.ctx.db.selectFrom('accounts').select('password').where('id', '=', 'acc_legacy_01').executeTakeFirstOrThrow()
    ).password;
    const report = await importFirestoreExport(t.ctx, exportJson, { fetchImages: true, allowPrivateAddresses: true, fetchTimeoutMs: 2000 });
    for (const [collection, n] of Object.entries(report.counts)) {
      expect({ collection, created: n.created, updated: n.updated }).toEqual({ collection, created: 0, updated: 0 });
    }
    expect(report.images.fetched).toBe(0);
    expect((await t.ctx.db.selectFrom('audit_logs').select('id').execute()).length).toBe(auditBefore);
    const after = (await t.ctx.db.selectFrom('accounts').select('password').where('id', '=', 'acc_legacy_01').executeTakeFirstOrThrow())
      .password;
    expect(after).toBe(passwordBefore);
  });

  it('reads the __collections__ layout with __datatype__ timestamps', async () => {
    const other = await createTestApp();
    try {
      const report = await importFirestoreExport(other.ctx, {
        __collections__: {
          rice_seed_varieties: {
            v1: {
              varietyName: 'NSIC Rc 160',
              createdAt: { __datatype__: 'timestamp', value: { _seconds: 1700000000, _nanoseconds: 0 } },
              __collections__: {},
            },
          },
        },
      });
      expect(report.counts.rice_seed_varieties!.created).toBe(1);
      const row = await other.ctx.db.selectFrom('rice_seed_varieties').selectAll().where('id', '=', 'v1').executeTakeFirstOrThrow();
      expect(row.createdAt).toBe('2023-11-14T22:13:20.000Z');
    } finally {
      await other.close();
    }
  });
});
