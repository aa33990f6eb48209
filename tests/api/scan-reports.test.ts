import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAN_REPORT_TEXTS, TARLAC_MUNICIPALITIES } from '../../common/scan-reports.js';
import { manilaDate as manilaDay, mondayOf } from '../../common/history-dates.js';
import { createScanReportsService } from '../../server/modules/farmer-app/scan-reports/service.js';
import { buildApp, type BuiltApp } from '../../server/app.js';
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
    await t.ctx.db
      .insertInto('rice_local_diseases')
      .values({ ...r, scientificName: null, isDeleted: 0, createdAt: new Date(now - 100_000 + i).toISOString() })
      .execute();
  }
});
afterAll(async () => {
  await t.close();
});

function report(extra: Record<string, unknown> = {}) {
  return {
    reportId: crypto.randomUUID(),
    label: 'rice-blast',
    confidence: 0.91,
    modelVersion: 'scanner-2026.03',
    scannedAt: new Date().toISOString(),
    municipality: 'Paniqui',
    barangay: 'Poblacion Norte',
    ...extra,
  };
}

/** A new install's registration, as the farmer app makes it on first start. */
async function register(app = t.app, ip = freshIp()): Promise<{ installId: string; installToken: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/public/v1/installs',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json' },
    payload: '{}',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Posts a report with an install's token (a new install's unless given) from an address (a new one unless given). */
async function post(
  payload: unknown,
  options: { ip?: string; token?: string | null; headers?: Record<string, string>; app?: TestApp['app'] } = {},
) {
  const app = options.app ?? t.app;
  const token = options.token === undefined ? (await register(app)).installToken : options.token;
  return app.inject({
    method: 'POST',
    url: URL,
    remoteAddress: options.ip ?? freshIp(),
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...options.headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

describe('scan reports', () => {
  it('stores a report once by its client-made id, without an Origin header (the Android app), as a bare POST', async () => {
    const body = report();
    const install = await register();
    const first = await post(body, { token: install.installToken });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ reportId: body.reportId, status: 'accepted' });
    const again = await post(body, { token: install.installToken });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ reportId: body.reportId, status: 'duplicate' });
    const rows = await t.ctx.db.selectFrom('scan_reports').selectAll().where('id', '=', body.reportId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      label: 'rice-blast',
      diseaseId: 'blast',
      municipality: 'Paniqui',
      barangay: 'Poblacion Norte',
      installId: install.installId,
      modelVersion: 'scanner-2026.03',
    });
    const counts = await t.ctx.db.selectFrom('scan_report_counts').selectAll().execute();
    expect(counts).toEqual([{ day: manilaDay(Date.parse(body.scannedAt)), diseaseId: 'blast', municipality: 'Paniqui', reports: 1 }]);
    expect(await t.ctx.db.selectFrom('scan_report_weekly').selectAll().execute()).toEqual([
      { week: mondayOf(manilaDay(Date.parse(body.scannedAt))), diseaseId: 'blast', municipality: 'Paniqui', reports: 1 },
    ]);
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
    const text = await t.app.inject({
      method: 'POST',
      url: URL,
      remoteAddress: freshIp(),
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
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
    expect(
      await t.ctx.db
        .selectFrom('scan_reports')
        .select(['municipality', 'barangay'])
        .where('id', '=', noPlace.reportId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ municipality: null, barangay: null });
  });

  it('limits reports per install and per IP address, with Retry-After', async () => {
    const { installToken } = await register();
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await post(report(), { ip, token: installToken })).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429]);
    // The same install from elsewhere is still over its budget.
    const elsewhere = await post(report(), { token: installToken });
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.json().error.message).toBe(SCAN_REPORT_TEXTS.limited.install);
    expect(Number(elsewhere.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(elsewhere.headers['retry-after'])).toBeLessThanOrEqual(60);
    // 8 a minute from one address, whichever installs send them (3 taken so far; refused ones do not count).
    const others: number[] = [];
    for (let i = 0; i < 6; i += 1) others.push((await post(report(), { ip })).statusCode);
    expect(others).toEqual([201, 201, 201, 201, 201, 429]);
    const address = await post(report(), { ip });
    expect(address.json().error.message).toBe(SCAN_REPORT_TEXTS.limited.address);
    expect((await post(report())).statusCode).toBe(201);
  });

  it('takes reports only with a valid install token; the token is the install id that counts', async () => {
    const install = await register();
    expect(install.installId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(install.installToken.startsWith(`${install.installId}.`)).toBe(true);
    const other = await register();
    expect(other.installId).not.toBe(install.installId);
    const refused: Array<[string, string | null, string]> = [
      ['no token', null, SCAN_REPORT_TEXTS.noInstallToken],
      ['not a bearer token', `Basic ${install.installToken}`, SCAN_REPORT_TEXTS.noInstallToken],
      ['an id signed by nobody', `${install.installId}.${'A'.repeat(43)}`, SCAN_REPORT_TEXTS.badInstallToken],
      ["another install's signature", `${install.installId}.${other.installToken.split('.')[1]}`, SCAN_REPORT_TEXTS.badInstallToken],
      ['a made-up id', `${crypto.randomUUID()}.${install.installToken.split('.')[1]}`, SCAN_REPORT_TEXTS.badInstallToken],
      ['garbage', 'x'.repeat(500), SCAN_REPORT_TEXTS.badInstallToken],
    ];
    for (const [name, token, message] of refused) {
      const body = report();
      const res = await t.app.inject({
        method: 'POST',
        url: URL,
        remoteAddress: freshIp(),
        payload: body,
        headers: token === null ? {} : { authorization: token.startsWith('Basic') ? token : `Bearer ${token}` },
      });
      expect(res.statusCode, name).toBe(401);
      expect(res.json().error.message, name).toBe(message);
      expect(await t.ctx.db.selectFrom('scan_reports').select('id').where('id', '=', body.reportId).execute(), name).toEqual([]);
    }
    // installId in the body may repeat the token's, never name another install.
    const mismatch = await post(report({ installId: other.installId }), { token: install.installToken });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.fields).toEqual({ installId: SCAN_REPORT_TEXTS.installIdMismatch });
    const same = report({ installId: install.installId });
    expect((await post(same, { token: install.installToken })).statusCode).toBe(201);
    expect(await t.ctx.db.selectFrom('scan_reports').select('installId').where('id', '=', same.reportId).executeTakeFirstOrThrow()).toEqual(
      { installId: install.installId },
    );
    // Registration asks for nothing: no body, or an empty object; anything else is refused.
    expect((await t.app.inject({ method: 'POST', url: '/api/public/v1/installs', remoteAddress: freshIp() })).statusCode).toBe(201);
    const nosy = await t.app.inject({
      method: 'POST',
      url: '/api/public/v1/installs',
      remoteAddress: freshIp(),
      payload: { phone: '09171234567' },
    });
    expect(nosy.statusCode).toBe(400);
  });

  it('limits registrations per address per hour, counted in the database', async () => {
    const ip = freshIp();
    const max = t.ctx.config.installRegistrationsPerIpPerHour;
    expect(max).toBe(60);
    const answers = await Promise.all(
      Array.from({ length: max + 20 }, () =>
        t.app.inject({ method: 'POST', url: '/api/public/v1/installs', remoteAddress: ip, payload: {} }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(max);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(20);
    expect(refused[0]!.json().error.message).toBe(SCAN_REPORT_TEXTS.tooManyInstalls);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(59 * 60);
  });

  it('retention deletes reports older than SCAN_REPORT_RETENTION_DAYS in batches, with one audit entry', async () => {
    const now = Date.now();
    const old = (i: number) => ({
      id: `old-${i}`,
      label: 'rice-blast',
      diseaseId: 'blast',
      confidence: 0.5,
      modelVersion: 'v1',
      scannedAt: new Date(now - 731 * DAY - i * 1000).toISOString(),
      receivedAt: new Date(now - 700 * DAY).toISOString(),
      municipality: null,
      barangay: null,
      installId: 'install-old',
    });
    for (let i = 0; i < 5200; i += 400) {
      await t.ctx.db
        .insertInto('scan_reports')
        .values(Array.from({ length: Math.min(400, 5200 - i) }, (_, k) => old(i + k)))
        .execute();
    }
    await t.ctx.db
      .insertInto('scan_report_counts')
      .values({ day: manilaDay(now - 731 * DAY), diseaseId: 'blast', municipality: '', reports: 5200 })
      .execute();
    await t.ctx.db
      .insertInto('scan_report_weekly')
      .values({ week: mondayOf(manilaDay(now - 745 * DAY)), diseaseId: 'blast', municipality: '', reports: 5200 })
      .execute();
    const keptBefore = await t.ctx.db
      .selectFrom('scan_reports')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', 'not like', 'old-%')
      .executeTakeFirstOrThrow();
    const service = createScanReportsService(t.ctx);
    try {
      expect(await service.purgeOld(now)).toBe(5200);
      expect(await service.purgeOld(now)).toBe(0);
    } finally {
      service.close();
    }
    const left = await t.ctx.db
      .selectFrom('scan_reports')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(Number(keptBefore.n));
    expect(
      await t.ctx.db
        .selectFrom('scan_report_counts')
        .selectAll()
        .where('day', '<', manilaDay(now - 730 * DAY))
        .execute(),
    ).toEqual([]);
    expect(
      await t.ctx.db
        .selectFrom('scan_report_weekly')
        .selectAll()
        .where('week', '<', mondayOf(manilaDay(now - 730 * DAY)))
        .execute(),
    ).toEqual([]);
    const audit = await t.ctx.db.selectFrom('audit_logs').selectAll().where('collection', '=', 'scan_reports').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'DELETE', description: 'Deleted 5200 scan reports older than 730 days' });
  });
});

describe('scan-report limits shared by two instances', () => {
  let a: TestApp;
  let b: BuiltApp;
  beforeAll(async () => {
    a = await createTestApp({
      instanceId: 'reports-a',
      scanReportsPerInstallPerMinute: 5,
      scanReportsPerIpPerMinute: 12,
      scanReportsPerMinute: 30,
    });
    b = await buildApp({ ...a.ctx.config, instanceId: 'reports-b' }, { logger: false });
    await a.ctx.db
      .insertInto('rice_local_diseases')
      .values({ id: 'blast', name: 'Rice blast', scientificName: null, isDeleted: 0, createdAt: new Date().toISOString() })
      .execute();
  });
  afterAll(async () => {
    await b.app.close();
    await a.close();
  });
  const stored = async () =>
    Number(
      (
        await a.ctx.db
          .selectFrom('scan_reports')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const both = (i: number) => (i % 2 === 0 ? a.app : b.app);

  it('gives 50 parallel reports of one install, sent to both instances, exactly its budget', async () => {
    const before = await stored();
    const { installToken } = await register(b.app);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => post(report(), { app: both(i), token: installToken })));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(45);
    expect(await stored()).toBe(before + 5);
  });

  it("gives 50 parallel reports of many installs from one address exactly the address's budget", async () => {
    const before = await stored();
    const ip = freshIp();
    const tokens = await Promise.all(Array.from({ length: 50 }, (_, i) => register(both(i)).then((r) => r.installToken)));
    const answers = await Promise.all(tokens.map((token, i) => post(report(), { app: both(i + 1), token, ip })));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(12);
    expect(answers.filter((r) => r.statusCode === 429).map((r) => r.json().error.message)).toEqual(
      new Array(38).fill(SCAN_REPORT_TEXTS.limited.address),
    );
    expect(await stored()).toBe(before + 12);
  });

  it('stops the whole deployment at its ceiling per minute with 429 and Retry-After, on every instance', async () => {
    // The ceiling counts the reports taken in the minute, on both instances.
    const counted = await a.ctx.db.selectFrom('throttles').select('count').where('key', '=', 'scan-deployment').executeTakeFirstOrThrow();
    const room = 30 - counted.count;
    expect(room).toBeGreaterThan(0);
    const before = await stored();
    const tokens = await Promise.all(Array.from({ length: 40 }, (_, i) => register(both(i)).then((r) => r.installToken)));
    const answers = await Promise.all(tokens.map((token, i) => post(report(), { app: both(i), token })));
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(room);
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused).toHaveLength(40 - room);
    expect(refused[0]!.json().error.message).toBe(SCAN_REPORT_TEXTS.limited.deployment);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused[0]!.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(await stored()).toBe(before + room);
    // Until the minute ends, both instances refuse every report.
    for (const app of [a.app, b.app]) expect((await post(report(), { app })).statusCode).toBe(429);
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
    for (let i = 0; i < 2; i += 1)
      expect((await post(report({ label: 'bacterial-leaf-blight', municipality: 'Capas', scannedAt: threeWeeksAgo }))).statusCode).toBe(
        201,
      );
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
    // csv-file.ts: a UTF-8 BOM first, CRLF after every line.
    expect(csv.body.startsWith('\ufeff')).toBe(true);
    expect(csv.body.endsWith('\r\n')).toBe(true);
    const lines = csv.body.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('week_start,disease_id,disease,municipality,reports');
    expect(lines.slice(1)).toEqual([`${mondayOf(manilaDay(Date.parse(threeWeeksAgo)))},blb,Bacterial leaf blight,Capas,2`]);
  });

  it('writes a disease name that looks like a formula as text in the CSV', async () => {
    const cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
    const id = `formula-${Date.now()}`;
    const week = mondayOf(manilaDay(Date.now()));
    await t.ctx.db
      .insertInto('rice_local_diseases')
      .values({ id, name: '=HYPERLINK("http://x","y")', scientificName: null, isDeleted: 0, createdAt: new Date().toISOString() })
      .execute();
    await t.ctx.db.insertInto('scan_report_weekly').values({ week, diseaseId: id, municipality: 'Capas', reports: 4 }).execute();
    try {
      const csv = await t.app.inject({ url: `/api/dashboard/detections.csv?diseaseId=${id}`, headers: { cookie } });
      expect(csv.statusCode).toBe(200);
      expect(
        csv.body
          .replace(/^\ufeff/, '')
          .trim()
          .split('\r\n')
          .slice(1),
      ).toEqual([`${week},${id},"'=HYPERLINK(""http://x"",""y"")",Capas,4`]);
    } finally {
      await t.ctx.db.deleteFrom('scan_report_weekly').where('diseaseId', '=', id).execute();
      await t.ctx.db.deleteFrom('rice_local_diseases').where('id', '=', id).execute();
    }
  });
});
