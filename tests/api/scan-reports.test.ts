import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_REPORT_TEXTS, TARLAC_MUNICIPALITIES } from '../../common/scan-reports.js';
import { manilaDate as manilaDay, mondayOf } from '../../common/history-dates.js';
import { createScanReportsService } from '../../server/modules/scan-reports/service.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

const URL = '/api/public/v1/scan-reports';
const DAY = 24 * 60 * 60_000;
let t: TestApp;
let ipSeq = 0;
const freshIp = () => `10.1.${Math.floor(ipSeq / 250)}.${(ipSeq++ % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp({ scanReportsPerInstallPerMinute: 3, scanReportsPerIpPerMinute: 8, scanReportRetentionDays: 730 });
  const now = Date.now();
  const rows = [
    { id: 'blast', name: 'Rice blast', isTrainingClass: 0 },
    { id: 'blb', name: 'Bacterial leaf blight', isTrainingClass: 0 },
    { id: 'tungro', name: 'Rice tungro', isTrainingClass: 0 },
    { id: 'healthy', name: 'Healthy leaf', isTrainingClass: 1 },
  ];
  for (const [i, r] of rows.entries()) {
    await t.ctx.db.insertInto('rice_local_diseases').values({ ...r, scientificName: null, isDeleted: 0, createdAt: new Date(now - 100_000 + i).toISOString() }).execute();
  }
});
afterAll(async () => { await t.close(); });

function report(extra: Record<string, unknown> = {}) {
  return {
    reportId: crypto.randomUUID(), label: 'rice-blast', confidence: 0.91, modelVersion: 'scanner-2026.03', scannedAt: new Date().toISOString(),
    municipality: 'Paniqui', barangay: 'Poblacion Norte', installId: crypto.randomUUID(), ...extra,
  };
}

const post = (payload: unknown, options: { ip?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({ method: 'POST', url: URL, remoteAddress: options.ip ?? freshIp(), headers: { 'content-type': 'application/json', ...options.headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });

describe('scan reports', () => {
  it('stores a report once by its client-made id, without an Origin header (the Android app), as a bare POST', async () => {
    const body = report();
    const first = await post(body);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ reportId: body.reportId, status: 'accepted' });
    const again = await post(body);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ reportId: body.reportId, status: 'duplicate' });
    const rows = await t.ctx.db.selectFrom('scan_reports').selectAll().where('id', '=', body.reportId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ label: 'rice-blast', diseaseId: 'blast', municipality: 'Paniqui', barangay: 'Poblacion Norte', installId: body.installId, modelVersion: 'scanner-2026.03' });
    const counts = await t.ctx.db.selectFrom('scan_report_counts').selectAll().execute();
    expect(counts).toEqual([{ day: manilaDay(Date.parse(body.scannedAt)), diseaseId: 'blast', municipality: 'Paniqui', reports: 1 }]);
    expect(await t.ctx.db.selectFrom('scan_report_weekly').selectAll().execute())
      .toEqual([{ week: mondayOf(manilaDay(Date.parse(body.scannedAt))), diseaseId: 'blast', municipality: 'Paniqui', reports: 1 }]);
  });

  it('refuses a scan more than SCAN_REPORT_MAX_AGE_DAYS ago (30 by default), so past weeks cannot be rewritten', async () => {
    expect(t.ctx.config.scanReportMaxAgeDays).toBe(30);
    const inside = report({ scannedAt: new Date(Date.now() - 29 * DAY).toISOString() });
    expect((await post(inside)).statusCode).toBe(201);
    const old = report({ scannedAt: new Date(Date.now() - 31 * DAY).toISOString() });
    const outside = await post(old);
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error.fields).toEqual({ scannedAt: SCAN_REPORT_TEXTS.tooOld(30) });
    expect(await t.ctx.db.selectFrom('scan_reports').select('id').where('id', '=', old.reportId).execute()).toEqual([]);
    const { loadConfig } = await import('../../server/config.js');
    expect(loadConfig({ SCAN_REPORT_MAX_AGE_DAYS: '7' }).scanReportMaxAgeDays).toBe(7);
  });

  it('refuses a browser on another site, and answers every bad input with a 4xx, never a 5xx', async () => {
    const cross = await post(report(), { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } });
    expect(cross.statusCode).toBe(403);
    const future = new Date(Date.now() + 60 * 60_000).toISOString();
    const old = new Date(Date.now() - 800 * DAY).toISOString();
    const cases: Array<[string, unknown, number, string?]> = [
      ['unknown label', report({ label: 'leaf-curl' }), 400, 'label'],
      ['label by name', report({ label: 'Rice blast' }), 400, 'label'],
      ['confidence over 1', report({ confidence: 1.5 }), 400],
      ['confidence as text', report({ confidence: '0.9' }), 400],
      ['no installId', { ...report(), installId: undefined }, 400],
      ['short reportId', report({ reportId: 'abc' }), 400],
      ['a phone number', report({ phone: '09171234567' }), 400],
      ['a photo', report({ photo: 'base64…' }), 400],
      ['unknown municipality', report({ municipality: 'Makati' }), 400, 'municipality'],
      ['scan in the future', report({ scannedAt: future }), 400, 'scannedAt'],
      ['scan older than kept', report({ scannedAt: old }), 400, 'scannedAt'],
      ['not a date', report({ scannedAt: 'yesterday' }), 400],
      ['an array', [report()], 400],
      ['null', 'null', 400],
      ['broken JSON', '{"reportId": ', 400],
      ['too large', report({ barangay: 'x'.repeat(3000) }), 413],
    ];
    for (const [name, body, status, field] of cases) {
      const res = await post(body);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      if (field) expect(res.json().error.fields?.[field], name).toBeTruthy();
    }
    const text = await t.app.inject({ method: 'POST', url: URL, remoteAddress: freshIp(), headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    expect(text.statusCode).toBeGreaterThanOrEqual(400);
    expect(text.statusCode).toBeLessThan(500);
    expect((await post(report({ label: 'leaf-curl' }))).json().error.fields.label).toBe(SCAN_REPORT_TEXTS.unknownLabel);
  });

  it('takes training-class labels and spells municipalities as the dashboard does', async () => {
    const healthy = report({ label: 'healthy-leaf', municipality: 'tarlac' });
    expect((await post(healthy)).statusCode).toBe(201);
    const row = await t.ctx.db.selectFrom('scan_reports').selectAll().where('id', '=', healthy.reportId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ diseaseId: 'healthy', municipality: 'Tarlac City' });
    const noPlace = report({ municipality: undefined, barangay: undefined, label: 'rice-tungro' });
    expect((await post(noPlace)).statusCode).toBe(201);
    expect(await t.ctx.db.selectFrom('scan_reports').select(['municipality', 'barangay']).where('id', '=', noPlace.reportId).executeTakeFirstOrThrow()).toEqual({ municipality: null, barangay: null });
  });

  it('limits reports per install and per IP address', async () => {
    const installId = crypto.randomUUID();
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await post(report({ installId }), { ip })).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429]);
    // The same install from elsewhere is still over its budget.
    expect((await post(report({ installId }))).statusCode).toBe(429);
    // 8 a minute from one address, whichever installs send them (4 counted so far).
    const others: number[] = [];
    for (let i = 0; i < 5; i += 1) others.push((await post(report(), { ip })).statusCode);
    expect(others).toEqual([201, 201, 201, 201, 429]);
    expect((await post(report())).statusCode).toBe(201);
  });

  it('retention deletes reports older than SCAN_REPORT_RETENTION_DAYS in batches, with one audit entry', async () => {
    const now = Date.now();
    const old = (i: number) => ({
      id: `old-${i}`, label: 'rice-blast', diseaseId: 'blast', confidence: 0.5, modelVersion: 'v1', scannedAt: new Date(now - 731 * DAY - i * 1000).toISOString(),
      receivedAt: new Date(now - 700 * DAY).toISOString(), municipality: null, barangay: null, installId: 'install-old',
    });
    for (let i = 0; i < 5200; i += 400) {
      await t.ctx.db.insertInto('scan_reports').values(Array.from({ length: Math.min(400, 5200 - i) }, (_, k) => old(i + k))).execute();
    }
    await t.ctx.db.insertInto('scan_report_counts').values({ day: manilaDay(now - 731 * DAY), diseaseId: 'blast', municipality: '', reports: 5200 }).execute();
    await t.ctx.db.insertInto('scan_report_weekly').values({ week: mondayOf(manilaDay(now - 745 * DAY)), diseaseId: 'blast', municipality: '', reports: 5200 }).execute();
    const keptBefore = await t.ctx.db.selectFrom('scan_reports').select((eb) => eb.fn.countAll<number>().as('n')).where('id', 'not like', 'old-%').executeTakeFirstOrThrow();
    const service = createScanReportsService(t.ctx);
    try {
      expect(await service.purgeOld(now)).toBe(5200);
      expect(await service.purgeOld(now)).toBe(0);
    } finally {
      service.close();
    }
    const left = await t.ctx.db.selectFrom('scan_reports').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(Number(keptBefore.n));
    expect(await t.ctx.db.selectFrom('scan_report_counts').selectAll().where('day', '<', manilaDay(now - 730 * DAY)).execute()).toEqual([]);
    expect(await t.ctx.db.selectFrom('scan_report_weekly').selectAll().where('week', '<', mondayOf(manilaDay(now - 730 * DAY))).execute()).toEqual([]);
    const audit = await t.ctx.db.selectFrom('audit_logs').selectAll().where('collection', '=', 'scan_reports').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'DELETE', description: 'Deleted 5200 scan reports older than 730 days' });
  });
});

describe('detections', () => {
  it('adds reports up per disease per week, top diseases and municipalities, for every signed-in role; CSV too', async () => {
    expect((await t.app.inject({ url: '/api/dashboard/detections' })).statusCode).toBe(401);
    const cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
    const read = async (q = '') => {
      const res = await t.app.inject({ url: `/api/dashboard/detections${q}`, headers: { cookie } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const before = await read();
    expect(before.weeks).toHaveLength(12);
    expect(before.weeks[11]).toBe(mondayOf(manilaDay(Date.now())));
    expect(before.diseases.map((d: { name: string }) => d.name)).toEqual(['Bacterial leaf blight', 'Rice blast', 'Rice tungro']);
    expect(before.municipalities.map((m: { municipality: string | null }) => m.municipality)).toEqual([...TARLAC_MUNICIPALITIES, null]);
    const blastNow = before.series.find((s: { diseaseId: string }) => s.diseaseId === 'blast')?.counts[11] ?? 0;

    // Three weeks ago: 2 bacterial leaf blight in Capas; now: 3 more blast in Capas.
    const threeWeeksAgo = new Date(Date.now() - 21 * DAY).toISOString();
    for (let i = 0; i < 2; i += 1) expect((await post(report({ label: 'bacterial-leaf-blight', municipality: 'Capas', scannedAt: threeWeeksAgo }))).statusCode).toBe(201);
    for (let i = 0; i < 3; i += 1) expect((await post(report({ municipality: 'Capas' }))).statusCode).toBe(201);
    const after = await read();
    const blb = after.series.find((s: { diseaseId: string }) => s.diseaseId === 'blb');
    expect(blb.counts[8] + blb.counts[9]).toBe(2);
    expect(blb.total).toBe(2);
    expect(after.series.find((s: { diseaseId: string }) => s.diseaseId === 'blast').counts[11]).toBe(blastNow + 3);
    expect(after.series.some((s: { diseaseId: string }) => s.diseaseId === 'healthy')).toBe(false);
    expect(after.top[0]).toMatchObject({ diseaseId: 'blast', name: 'Rice blast' });
    expect(after.top.map((x: { diseaseId: string }) => x.diseaseId)).toContain('blb');
    expect(after.municipalities.find((m: { municipality: string }) => m.municipality === 'Capas').reports).toBe(5);

    const filtered = await read('?diseaseId=blb');
    expect(filtered.diseaseId).toBe('blb');
    expect(filtered.series.map((s: { diseaseId: string }) => s.diseaseId)).toEqual(['blb']);
    expect(filtered.municipalities.find((m: { municipality: string }) => m.municipality === 'Capas').reports).toBe(2);
    expect(filtered.municipalities.find((m: { municipality: string }) => m.municipality === 'Paniqui').reports).toBe(0);
    expect((await t.app.inject({ url: '/api/dashboard/detections?diseaseId=healthy', headers: { cookie } })).statusCode).toBe(404);

    const csv = await t.app.inject({ url: '/api/dashboard/detections.csv?diseaseId=blb', headers: { cookie } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe('week_start,disease_id,disease,municipality,reports');
    expect(lines.slice(1)).toEqual([`${mondayOf(manilaDay(Date.parse(threeWeeksAgo)))},blb,Bacterial leaf blight,Capas,2`]);
  });

  it('writes a disease name that looks like a formula as text in the CSV', async () => {
    const cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
    const id = `formula-${Date.now()}`;
    const week = mondayOf(manilaDay(Date.now()));
    await t.ctx.db.insertInto('rice_local_diseases').values({ id, name: '=HYPERLINK("http://x","y")', scientificName: null, isDeleted: 0, createdAt: new Date().toISOString() }).execute();
    await t.ctx.db.insertInto('scan_report_weekly').values({ week, diseaseId: id, municipality: 'Capas', reports: 4 }).execute();
    try {
      const csv = await t.app.inject({ url: `/api/dashboard/detections.csv?diseaseId=${id}`, headers: { cookie } });
      expect(csv.statusCode).toBe(200);
      expect(csv.body.trim().split('\n').slice(1)).toEqual([`${week},${id},"'=HYPERLINK(""http://x"",""y"")",Capas,4`]);
    } finally {
      await t.ctx.db.deleteFrom('scan_report_weekly').where('diseaseId', '=', id).execute();
      await t.ctx.db.deleteFrom('rice_local_diseases').where('id', '=', id).execute();
    }
  });
});
