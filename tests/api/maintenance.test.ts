import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAINTENANCE } from '../../common/maintenance.js';
import {
  ACCOUNT_ENUMS_ID,
  DEFAULT_SECURITY_QUESTIONS,
  VARIETY_ENUMS_ID,
  currentReleaseYear,
  defaultYearReleases,
  type MaintenanceDocument,
} from '../../common/schemas/maintenance.js';
import type { LiveEvent } from '../../server/platform/writes/events.js';
import { extendYears } from '../../server/modules/content/maintenance/lists.js';
import { ensureYearRollover } from '../../server/modules/content/maintenance/option-lists.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { chooseSecurityQuestion, makeVarietyUsing } from '../fixtures/maintenance.js';

let t: TestApp;
let superCookie: string;
let adminCookie: string;
const events: LiveEvent[] = [];
let tagCounter = 0;
/** A value no other test uses, so tests sharing the two documents never collide. */
const unique = (base: string) => `${base} ${Date.now().toString(36)}${(tagCounter += 1)}`;

beforeAll(async () => {
  t = await createTestApp();
  t.ctx.events.subscribe((e) => events.push(e));
  superCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN', fullname: 'Elena Reyes' }));
  adminCookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
});
afterAll(async () => {
  await t.close();
});

const docUrl = (doc: string) => `/api/maintenance/documents/${doc}`;
const listUrl = (doc: string, list: string) => `${docUrl(doc)}/lists/${list}`;

async function getDoc(doc: string, cookie = superCookie): Promise<MaintenanceDocument> {
  const res = await t.app.inject({ url: docUrl(doc), headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return res.json();
}
const add = (doc: string, list: string, value: unknown, cookie = superCookie) =>
  t.app.inject({ method: 'POST', url: listUrl(doc, list), headers: { cookie }, payload: { value } });
const remove = (doc: string, list: string, value: string, cookie = superCookie) =>
  t.app.inject({ method: 'DELETE', url: `${listUrl(doc, list)}?value=${encodeURIComponent(value)}`, headers: { cookie } });
const save = (doc: string, payload: object, cookie = superCookie) =>
  t.app.inject({ method: 'PUT', url: docUrl(doc), headers: { cookie }, payload });

async function auditFor(docId: string) {
  return t.ctx.db
    .selectFrom('audit_logs')
    .selectAll()
    .where('collection', '=', 'maintenance')
    .where('documentId', '=', docId)
    .orderBy('seq', 'desc')
    .execute();
}
async function auditCount(): Promise<number> {
  const row = await t.ctx.db
    .selectFrom('audit_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
async function expectEvent(id: string, from: number) {
  await vi.waitFor(
    () => {
      expect(events.slice(from)).toContainEqual({ topic: 'maintenance', id, op: 'update' });
    },
    { timeout: 5000 },
  );
}

describe('file maintenance: who may use it', () => {
  it('gives ADMIN 403 on every File maintenance route and changes nothing', async () => {
    const before = await getDoc(VARIETY_ENUMS_ID);
    const audits = await auditCount();
    const responses = [
      await t.app.inject({ url: docUrl(VARIETY_ENUMS_ID), headers: { cookie: adminCookie } }),
      await t.app.inject({ url: `${docUrl(ACCOUNT_ENUMS_ID)}/usage`, headers: { cookie: adminCookie } }),
      await add(VARIETY_ENUMS_ID, 'seasons', 'Intermediate', adminCookie),
      await remove(VARIETY_ENUMS_ID, 'seasons', 'Dry', adminCookie),
      await save(VARIETY_ENUMS_ID, { version: before.version, lists: { seasons: [] } }, adminCookie),
    ];
    for (const res of responses) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    expect(await getDoc(VARIETY_ENUMS_ID)).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it('needs a session (401) but lets every signed-in role read the form options', async () => {
    expect((await t.app.inject({ url: docUrl(VARIETY_ENUMS_ID) })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: listUrl(VARIETY_ENUMS_ID, 'seasons'), payload: { value: 'X' } })).statusCode).toBe(
      401,
    );
    const options = await t.app.inject({ url: '/api/maintenance/options', headers: { cookie: adminCookie } });
    expect(options.statusCode).toBe(200);
    expect(options.json().riceVarieties.seasons).toEqual(expect.arrayContaining(['Dry', 'Wet']));
  });
});

describe('file maintenance: add', () => {
  it('adds a trimmed option at the end, with an audit entry (before and after) and a live event', async () => {
    const value = unique('Ratoon');
    const before = await getDoc(VARIETY_ENUMS_ID);
    const from = events.length;
    const res = await add(VARIETY_ENUMS_ID, 'seasons', `  ${value}  `);
    expect(res.statusCode).toBe(200);
    const doc: MaintenanceDocument = res.json();
    expect(doc.lists.seasons).toEqual([...before.lists.seasons!, value]);
    expect(doc.version).toBe(before.version + 1);
    // The forms' options follow, in the same order.
    const options = (await t.app.inject({ url: '/api/maintenance/options', headers: { cookie: adminCookie } })).json();
    expect(options.riceVarieties.seasons).toEqual(doc.lists.seasons);
    const [entry] = await auditFor(VARIETY_ENUMS_ID);
    expect(entry).toMatchObject({
      action: 'UPDATE',
      collection: 'maintenance',
      userName: 'Elena Reyes',
      documentName: MAINTENANCE.audit.names[VARIETY_ENUMS_ID],
    });
    expect(entry!.description).toBe(`Added "${value}" to Seasons`);
    expect(JSON.parse(entry!.changes!)).toEqual({ before: { seasons: before.lists.seasons }, after: { seasons: doc.lists.seasons } });
    await expectEvent(VARIETY_ENUMS_ID, from);
  });

  it("answers a case-insensitive duplicate with 'Already exists.' and changes nothing", async () => {
    const value = unique('Direct Wet Seeding');
    expect((await add(VARIETY_ENUMS_ID, 'plantingMethods', value)).statusCode).toBe(200);
    const before = await getDoc(VARIETY_ENUMS_ID);
    const audits = await auditCount();
    for (const dup of [value.toUpperCase(), ` ${value.toLowerCase()} `, 'direct seed']) {
      const res = await add(VARIETY_ENUMS_ID, 'plantingMethods', dup);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'CONFLICT', message: 'Already exists.', fields: { value: 'Already exists.' } });
    }
    expect(await getDoc(VARIETY_ENUMS_ID)).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it('rejects empty, too long, non-text and non-year values with a 400 that changes nothing', async () => {
    const before = await getDoc(VARIETY_ENUMS_ID);
    const audits = await auditCount();
    const cases: Array<[string, unknown, string]> = [
      ['seasons', '   ', MAINTENANCE.errors.empty],
      ['seasons', 'x'.repeat(201), MAINTENANCE.errors.tooLong],
      ['environments', 42, ''],
      ['yearReleases', 'Twenty', MAINTENANCE.errors.year],
      ['yearReleases', '20251', MAINTENANCE.errors.year],
    ];
    for (const [list, value, message] of cases) {
      const res = await add(VARIETY_ENUMS_ID, list, value);
      expect(res.statusCode, `${list} ${String(value)}`).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_FAILED');
      if (message) expect(res.json().error.fields.value).toBe(message);
    }
    // A list of the other document, an unknown list, an unknown document.
    expect((await add(VARIETY_ENUMS_ID, 'securityQuestions', 'Q?')).statusCode).toBe(404);
    expect((await add(VARIETY_ENUMS_ID, 'colours', 'Red')).statusCode).toBe(400);
    expect((await add('other_enums', 'seasons', 'Red')).statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: listUrl(VARIETY_ENUMS_ID, 'seasons'),
          headers: { cookie: superCookie, 'content-type': 'application/json' },
          payload: '{"value":',
        })
      ).statusCode,
    ).toBe(400);
    expect(await getDoc(VARIETY_ENUMS_ID)).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it('accepts a new year release', async () => {
    const res = await add(VARIETY_ENUMS_ID, 'yearReleases', '2009');
    expect(res.statusCode).toBe(200);
    expect(res.json().lists.yearReleases).toContain('2009');
    expect((await remove(VARIETY_ENUMS_ID, 'yearReleases', '2009')).statusCode).toBe(200);
  });
});

describe('file maintenance: remove', () => {
  it('subtracts the option, with an audit entry and a live event; removing it again changes nothing', async () => {
    const value = unique('Upland');
    await add(VARIETY_ENUMS_ID, 'environments', value);
    const before = await getDoc(VARIETY_ENUMS_ID);
    const from = events.length;
    const res = await remove(VARIETY_ENUMS_ID, 'environments', value);
    expect(res.statusCode).toBe(200);
    expect(res.json().lists.environments).toEqual(before.lists.environments!.filter((v) => v !== value));
    const [entry] = await auditFor(VARIETY_ENUMS_ID);
    expect(entry!.description).toBe(`Removed "${value}" from Environments`);
    expect(JSON.parse(entry!.changes!).before.environments).toContain(value);
    expect(JSON.parse(entry!.changes!).after.environments).not.toContain(value);
    await expectEvent(VARIETY_ENUMS_ID, from);

    const audits = await auditCount();
    const again = await remove(VARIETY_ENUMS_ID, 'environments', value);
    expect(again.statusCode).toBe(200);
    expect(again.json().version).toBe(res.json().version);
    expect(await auditCount()).toBe(audits);
  });

  it('applies the five default security questions when the list is empty', async () => {
    const doc = await getDoc(ACCOUNT_ENUMS_ID);
    const res = await save(ACCOUNT_ENUMS_ID, { version: doc.version, lists: { securityQuestions: [] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ usingDefaults: true, lists: { securityQuestions: DEFAULT_SECURITY_QUESTIONS } });
    const options = (await t.app.inject({ url: '/api/maintenance/options', headers: { cookie: adminCookie } })).json();
    expect(options.accounts.securityQuestions).toEqual(DEFAULT_SECURITY_QUESTIONS);
    // Removing one of the defaults keeps the other four.
    const removed = await remove(ACCOUNT_ENUMS_ID, 'securityQuestions', DEFAULT_SECURITY_QUESTIONS[1]!);
    expect(removed.json()).toMatchObject({
      usingDefaults: false,
      lists: { securityQuestions: DEFAULT_SECURITY_QUESTIONS.filter((_, i) => i !== 1) },
    });
    const stored = await t.ctx.db.selectFrom('maintenance').select('data').where('id', '=', ACCOUNT_ENUMS_ID).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.data).securityQuestions).toHaveLength(4);
    // Put the five back for the other tests.
    const now = await getDoc(ACCOUNT_ENUMS_ID);
    expect(
      (await save(ACCOUNT_ENUMS_ID, { version: now.version, lists: { securityQuestions: DEFAULT_SECURITY_QUESTIONS } })).statusCode,
    ).toBe(200);
  });
});

describe('file maintenance: Save Changes', () => {
  it('writes whole lists trimmed and deduplicated, in the given order', async () => {
    const doc = await getDoc(VARIETY_ENUMS_ID);
    const reordered = [...doc.lists.environments!].reverse();
    const extra = unique('Saline Prone');
    const from = events.length;
    const res = await save(VARIETY_ENUMS_ID, {
      version: doc.version,
      lists: { environments: [...reordered.map((v) => ` ${v} `), '', `  ${extra}`, extra.toUpperCase(), reordered[0]!.toLowerCase()] },
    });
    expect(res.statusCode).toBe(200);
    const saved: MaintenanceDocument = res.json();
    expect(saved.lists.environments).toEqual([...reordered, extra]);
    expect(saved.lists.seasons).toEqual(doc.lists.seasons);
    expect(saved.version).toBe(doc.version + 1);
    const [entry] = await auditFor(VARIETY_ENUMS_ID);
    expect(entry!.description).toBe('Saved Environments');
    expect(JSON.parse(entry!.changes!)).toEqual({
      before: { environments: doc.lists.environments },
      after: { environments: saved.lists.environments },
    });
    await expectEvent(VARIETY_ENUMS_ID, from);
    const options = (await t.app.inject({ url: '/api/maintenance/options', headers: { cookie: adminCookie } })).json();
    expect(options.riceVarieties.environments).toEqual(saved.lists.environments);
  });

  it('answers a stale version with 409 and the current document, and changes nothing', async () => {
    const doc = await getDoc(VARIETY_ENUMS_ID);
    await add(VARIETY_ENUMS_ID, 'seasons', unique('Late Wet'));
    const current = await getDoc(VARIETY_ENUMS_ID);
    const audits = await auditCount();
    const res = await save(VARIETY_ENUMS_ID, { version: doc.version, lists: { seasons: ['Dry'] } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'VERSION_CONFLICT', currentVersion: current.version, current });
    expect(await getDoc(VARIETY_ENUMS_ID)).toEqual(current);
    expect(await auditCount()).toBe(audits);
  });

  it('writes nothing when no list changed, and rejects bad lists with a 400', async () => {
    const doc = await getDoc(VARIETY_ENUMS_ID);
    const audits = await auditCount();
    const same = await save(VARIETY_ENUMS_ID, { version: doc.version, lists: { seasons: doc.lists.seasons } });
    expect(same.statusCode).toBe(200);
    expect(same.json().version).toBe(doc.version);
    const bad: object[] = [
      { version: doc.version, lists: { securityQuestions: ['Q?'] } },
      { version: doc.version, lists: { colours: ['Red'] } },
      { version: doc.version, lists: { yearReleases: [...doc.lists.yearReleases!, 'soon'] } },
      { version: doc.version, lists: { seasons: Array.from({ length: 201 }, (_, i) => `S${i}`) } },
      { version: doc.version, lists: { seasons: 'Dry' } },
      { version: 'one', lists: {} },
      { lists: { seasons: ['Dry'] } },
    ];
    for (const payload of bad) {
      const res = await save(VARIETY_ENUMS_ID, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    expect(await getDoc(VARIETY_ENUMS_ID)).toEqual(doc);
    expect(await auditCount()).toBe(audits);
  });
});

describe('file maintenance: usage counts', () => {
  it('counts live varieties per season, planting method, environment and year release', async () => {
    const season = unique('Dry');
    const longer = `${season} Extended`;
    const method = unique('Broadcast');
    const env = unique('Hillside');
    for (const v of [season, longer]) await add(VARIETY_ENUMS_ID, 'seasons', v);
    await add(VARIETY_ENUMS_ID, 'plantingMethods', method);
    await add(VARIETY_ENUMS_ID, 'environments', env);
    await makeVarietyUsing(t.ctx, { season: [season, 'Wet'], environment: [env], plantingMethod: method, yearRelease: '2013' });
    await makeVarietyUsing(t.ctx, { season: [season], environment: [env, 'Upperland'], plantingMethod: method, yearRelease: '2013' });
    await makeVarietyUsing(t.ctx, { season: [longer], environment: [], plantingMethod: null, yearRelease: '2014' });
    await makeVarietyUsing(t.ctx, { season: [season], environment: [env], plantingMethod: method, yearRelease: '2013', isDeleted: true });
    const res = await t.app.inject({ url: `${docUrl(VARIETY_ENUMS_ID)}/usage`, headers: { cookie: superCookie } });
    expect(res.statusCode).toBe(200);
    const { counts, usage } = res.json();
    expect(counts).toBe('varieties');
    expect(usage.seasons[season]).toBe(2);
    expect(usage.seasons[longer]).toBe(1);
    expect(usage.plantingMethods[method]).toBe(2);
    expect(usage.environments[env]).toBe(2);
    expect(usage.yearReleases['2013']).toBeGreaterThanOrEqual(2);
    // Every option of every list has a count, zero included.
    const doc = await getDoc(VARIETY_ENUMS_ID);
    for (const list of ['seasons', 'plantingMethods', 'environments', 'yearReleases'] as const) {
      expect(Object.keys(usage[list]).sort()).toEqual([...doc.lists[list]!].sort());
    }
  });

  it('counts options with quotes, backslashes and LIKE wildcards literally', async () => {
    const odd = unique('Wet "late" 50%_\\');
    await add(VARIETY_ENUMS_ID, 'seasons', odd);
    const lookalike = odd.replace('50%_', '50ab');
    await makeVarietyUsing(t.ctx, { season: [odd] });
    await makeVarietyUsing(t.ctx, { season: [lookalike] });
    const { usage } = (await t.app.inject({ url: `${docUrl(VARIETY_ENUMS_ID)}/usage`, headers: { cookie: superCookie } })).json();
    expect(usage.seasons[odd]).toBe(1);
  });

  it('counts the live accounts that chose each security question', async () => {
    const question = unique('What is the name of your barangay');
    await add(ACCOUNT_ENUMS_ID, 'securityQuestions', question);
    for (const deleted of [false, false, false, true]) {
      const a = await makeAccount(t.ctx, deleted ? { state: { isDeleted: 1 } } : {});
      await chooseSecurityQuestion(t.ctx, a.id, question);
    }
    const res = await t.app.inject({ url: `${docUrl(ACCOUNT_ENUMS_ID)}/usage`, headers: { cookie: superCookie } });
    expect(res.json()).toMatchObject({ counts: 'accounts', usage: { securityQuestions: { [question]: 3 } } });
    await remove(ACCOUNT_ENUMS_ID, 'securityQuestions', question);
  });
});

describe('file maintenance: the year-release list', () => {
  it('defaults to 2012 through the current year', () => {
    const years = defaultYearReleases(2025);
    expect(years[0]).toBe('2012');
    expect(years.at(-1)).toBe('2025');
    expect(years).toHaveLength(14);
    expect(Number(defaultYearReleases().at(-1))).toBe(currentReleaseYear());
  });

  it('adds the years after the last one it was extended through, newest first when the list is', () => {
    expect(extendYears(['2012', '2013'], 2013, 2015)).toEqual({ years: ['2012', '2013', '2014', '2015'], added: ['2014', '2015'] });
    expect(extendYears(['2014', '2013'], 2014, 2016)).toEqual({ years: ['2016', '2015', '2014', '2013'], added: ['2015', '2016'] });
    expect(extendYears(['2012', '2014'], 2014, 2014)).toEqual({ years: ['2012', '2014'], added: [] });
  });

  it('gains the new year on its own once, with an audit entry by System User and a live event; a removed year stays removed', async () => {
    const year = currentReleaseYear();
    const doc = await getDoc(VARIETY_ENUMS_ID);
    expect(doc.lists.yearReleases).toContain(String(year));
    const from = events.length;
    const added = await ensureYearRollover(t.ctx.db, t.ctx.events, year + 1);
    expect(added).toEqual([String(year + 1)]);
    expect(await ensureYearRollover(t.ctx.db, t.ctx.events, year + 1)).toEqual([]);
    const [entry] = await auditFor(VARIETY_ENUMS_ID);
    expect(entry).toMatchObject({ userName: 'System User', description: `Added ${year + 1} to Year Releases (the year turned)` });
    await expectEvent(VARIETY_ENUMS_ID, from);
    const after = await getDoc(VARIETY_ENUMS_ID);
    expect(after.lists.yearReleases!.at(-1)).toBe(String(year + 1));

    // A user removes the new year: the next check does not bring it back.
    expect((await remove(VARIETY_ENUMS_ID, 'yearReleases', String(year + 1))).statusCode).toBe(200);
    expect(await ensureYearRollover(t.ctx.db, t.ctx.events, year + 1)).toEqual([]);
    expect((await getDoc(VARIETY_ENUMS_ID)).lists.yearReleases).not.toContain(String(year + 1));
  });

  it('fills in years missing from an older document when it is read', async () => {
    const year = currentReleaseYear();
    const row = await t.ctx.db.selectFrom('maintenance').selectAll().where('id', '=', VARIETY_ENUMS_ID).executeTakeFirstOrThrow();
    const data = JSON.parse(row.data);
    // An imported document that stops two years ago and has no yearsThrough.
    const old = { ...data, yearReleases: defaultYearReleases(year - 2) };
    delete old.yearsThrough;
    await t.ctx.db
      .updateTable('maintenance')
      .set({ data: JSON.stringify(old) })
      .where('id', '=', VARIETY_ENUMS_ID)
      .execute();
    const options = (await t.app.inject({ url: '/api/maintenance/options', headers: { cookie: adminCookie } })).json();
    expect(options.riceVarieties.yearReleases).toEqual(defaultYearReleases(year));
    // Opening the File maintenance screen persists it.
    expect((await getDoc(VARIETY_ENUMS_ID)).lists.yearReleases).toEqual(defaultYearReleases(year));
    const stored = JSON.parse(
      (await t.ctx.db.selectFrom('maintenance').select('data').where('id', '=', VARIETY_ENUMS_ID).executeTakeFirstOrThrow()).data,
    );
    expect(stored).toMatchObject({ yearReleases: defaultYearReleases(year), yearsThrough: year });
  });

  it('re-creates a missing document with the defaults', async () => {
    await t.ctx.db.deleteFrom('maintenance').where('id', '=', ACCOUNT_ENUMS_ID).execute();
    const doc = await getDoc(ACCOUNT_ENUMS_ID);
    expect(doc).toMatchObject({ usingDefaults: false, lists: { securityQuestions: DEFAULT_SECURITY_QUESTIONS } });
  });
});
