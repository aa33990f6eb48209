import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseSemicolons } from 'csv-parse/sync';
import { HISTORY } from '../../common/history.js';
import { manilaDate, manilaDayStart } from '../../common/history-dates.js';
import type { HistoryEntry } from '../../common/schemas/history.js';
import { seedAudit } from '../../server/cli/seed-audit.js';
import { writeAudit } from '../../server/platform/writes/audit.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount, type TestAccount } from '../fixtures/factories.js';
import { DAY, isoAgo, makeEntries } from '../fixtures/history.js';

let t: TestApp;
let boss: TestAccount;
let bossCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  boss = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN', fullname: 'Elena Reyes' });
  bossCookie = await loginAs(t.app, boss);
});
afterAll(async () => {
  await t.close();
});

type Query = Record<string, string | number | undefined>;
function qs(query: Query): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) p.set(k, String(v));
  return p.toString();
}
async function list(query: Query, cookie = bossCookie) {
  const res = await t.app.inject({ url: `/api/history?${qs(query)}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: HistoryEntry[]; nextCursor: string | null };
}
async function all(query: Query, cookie = bossCookie, limit = 100): Promise<HistoryEntry[]> {
  const out: HistoryEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await list({ ...query, limit, cursor }, cookie);
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}
async function count(query: Query, cookie = bossCookie) {
  const res = await t.app.inject({ url: `/api/history/count?${qs(query)}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { count: number; exact: boolean };
}
async function csv(query: Query, cookie = bossCookie) {
  const res = await t.app.inject({ url: `/api/history/export.csv?${qs(query)}`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}
/** A small RFC 4180 reader for checking the export. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      /* line end */
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

async function actor(role: 'ADMIN' | 'SYSTEM_ADMIN' = 'ADMIN', fullname?: string) {
  const account = await makeAccount(t.ctx, { role, ...(fullname ? { fullname } : {}) });
  return { account, who: { userId: account.id, userName: account.fullname, userEmail: account.email } };
}

describe('history list', () => {
  it('needs a session; the user list is for super admins only', async () => {
    expect((await t.app.inject({ url: '/api/history' })).statusCode).toBe(401);
    const { account } = await actor();
    const cookie = await loginAs(t.app, account);
    expect((await t.app.inject({ url: '/api/history', headers: { cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/history/users', headers: { cookie } })).statusCode).toBe(403);
    const users = (await t.app.inject({ url: '/api/history/users', headers: { cookie: bossCookie } })).json().items as Array<{
      id: string;
      name: string;
    }>;
    expect(users).toEqual(
      expect.arrayContaining([
        { id: account.id, name: account.fullname },
        { id: 'system', name: 'System User' },
      ]),
    );
  });

  it('shows entries newest first, with older entries named by actorId, performedBy and name', async () => {
    const { account, who } = await actor('ADMIN', 'Ana Bautista');
    await makeEntries(t.ctx, [
      {
        ...who,
        timestamp: isoAgo(3000),
        action: 'CREATE',
        collection: 'rice_local_pests',
        documentName: 'Rice black bug',
        description: 'Created pest Rice black bug',
      },
      {
        actorId: account.id,
        timestamp: isoAgo(2000),
        action: 'ADDED',
        collection: 'rice_local_diseases',
        name: 'Rice blast',
        description: 'Imported',
      },
      {
        performedBy: account.id,
        timestamp: isoAgo(1000),
        action: 'DELETE',
        collection: 'accounts',
        name: 'Old Account',
        changes: JSON.stringify({ before: { status: 'active' }, after: null }),
      },
    ]);
    const { items, nextCursor } = await list({ user: account.id });
    expect(nextCursor).toBeNull();
    expect(items.map((i) => [i.action, i.userId, i.userName, i.userEmail, i.documentName, i.hasChanges])).toEqual([
      ['DELETE', account.id, 'Ana Bautista', account.email, 'Old Account', true],
      ['ADDED', account.id, 'Ana Bautista', account.email, 'Rice blast', false],
      ['CREATE', account.id, 'Ana Bautista', account.email, 'Rice black bug', false],
    ]);
  });

  it('names entries without a session after the System User, and unknown people by their id', async () => {
    const token = `sysonly${Date.now()}`;
    await writeAudit(t.ctx.db, null, { action: 'UPDATE', collection: 'accounts', documentId: null, documentName: token, description: 'x' });
    await makeEntries(t.ctx, [{ actorId: 'ghost-7', documentName: token, timestamp: isoAgo(DAY) }]);
    const items = (await list({ q: token })).items;
    expect(items.map((i) => i.userName)).toEqual(['System User', 'ghost-7']);
  });

  it('filters by action, collection and user, alone and combined', async () => {
    const a = await actor();
    const b = await actor();
    await makeEntries(t.ctx, [
      { ...a.who, action: 'CREATE', collection: 'rice_local_pests', timestamp: isoAgo(50) },
      { ...a.who, action: 'UPDATE', collection: 'rice_local_pests', timestamp: isoAgo(40) },
      { ...a.who, action: 'UPDATE', collection: 'rice_seed_varieties', timestamp: isoAgo(30) },
      { ...b.who, action: 'UPDATE', collection: 'rice_local_pests', timestamp: isoAgo(20) },
      { actorId: b.account.id, action: 'RESTRICT', collection: 'accounts', timestamp: isoAgo(10) },
    ]);
    expect((await list({ user: a.account.id })).items).toHaveLength(3);
    expect((await list({ user: b.account.id })).items.map((i) => i.action)).toEqual(['RESTRICT', 'UPDATE']);
    expect((await list({ user: a.account.id, action: 'UPDATE' })).items.map((i) => i.collection)).toEqual([
      'rice_seed_varieties',
      'rice_local_pests',
    ]);
    expect((await list({ user: a.account.id, collection: 'rice_local_pests' })).items.map((i) => i.action)).toEqual(['UPDATE', 'CREATE']);
    expect((await list({ user: a.account.id, action: 'UPDATE', collection: 'rice_local_pests' })).items).toHaveLength(1);
    expect((await list({ user: b.account.id, action: 'RESTRICT', collection: 'accounts' })).items).toHaveLength(1);
    expect((await list({ user: b.account.id, action: 'CREATE' })).items).toHaveLength(0);
    expect(await count({ user: a.account.id, action: 'UPDATE' })).toEqual({ count: 2, exact: true });
  });

  it('filters by date: Today in Manila, the last 7 and 30 days, and a custom range of Manila days', async () => {
    const { account, who } = await actor();
    const now = Date.now();
    const todayStart = manilaDayStart(manilaDate(now));
    const at = (t0: number, label: string) => ({ ...who, timestamp: new Date(t0).toISOString(), documentName: label });
    await makeEntries(t.ctx, [
      at(todayStart + 60_000, 'today-early'),
      at(todayStart - 60_000, 'yesterday-late'),
      at(now - 6 * DAY, 'six-days'),
      at(now - 8 * DAY, 'eight-days'),
      at(now - 29 * DAY, 'twenty-nine-days'),
      at(now - 31 * DAY, 'thirty-one-days'),
      at(Date.parse('2024-03-10T16:30:00.000Z'), 'manila-mar-11'),
      at(Date.parse('2024-03-10T15:59:59.000Z'), 'manila-mar-10-end'),
      at(Date.parse('2024-03-12T15:59:59.999Z'), 'manila-mar-12-end'),
      at(Date.parse('2024-03-12T16:00:00.000Z'), 'manila-mar-13'),
      { ...who, timestamp: 'imported without a date', documentName: 'no-date' },
    ]);
    const names = async (query: Query) => (await list({ user: account.id, ...query })).items.map((i) => i.documentName);
    expect(await names({ range: 'all' })).toHaveLength(11);
    expect(await names({ range: 'today' })).toEqual(['today-early']);
    const week = await names({ range: 'week' });
    expect(week).toEqual(expect.arrayContaining(['today-early', 'six-days']));
    expect(week).not.toContain('eight-days');
    const month = await names({ range: 'month' });
    expect(month).toEqual(expect.arrayContaining(['six-days', 'eight-days', 'twenty-nine-days']));
    expect(month).not.toContain('thirty-one-days');
    expect(await names({ range: 'custom', from: '2024-03-11', to: '2024-03-12' })).toEqual(['manila-mar-12-end', 'manila-mar-11']);
    const fromMar13 = await names({ range: 'custom', from: '2024-03-13' });
    expect(fromMar13).not.toContain('manila-mar-12-end');
    // A timestamp that is not a date is in All Time only.
    expect(fromMar13).not.toContain('no-date');
    expect(await names({ range: 'custom', to: '2024-03-10' })).toEqual(['manila-mar-10-end']);
    expect(await count({ user: account.id, range: 'month' })).toEqual({ count: month.length, exact: true });
  });

  it('searches user, document name and description by word beginnings', async () => {
    const { account, who } = await actor('ADMIN', 'Corazon Peñaflor');
    const tag = `zq${Date.now().toString(36)}`;
    await makeEntries(t.ctx, [
      { ...who, documentName: `NSIC Rc 222 ${tag}`, description: 'Updated rice variety', timestamp: isoAgo(30) },
      {
        ...who,
        documentName: `Golden apple snail ${tag}`,
        description: 'Created pest',
        collection: 'rice_local_pests',
        timestamp: isoAgo(20),
      },
      { actorId: account.id, name: `Tungro ${tag}`, description: 'Older entry: leaf discoloration', timestamp: isoAgo(10) },
    ]);
    const docs = async (q: string, extra: Query = {}) => (await list({ q, ...extra })).items.map((i) => i.documentName);
    expect(await docs(`${tag} nsic rc 22`)).toEqual([`NSIC Rc 222 ${tag}`]);
    expect(await docs(`${tag} APPLE`)).toEqual([`Golden apple snail ${tag}`]);
    expect(await docs(`${tag} discolor`)).toEqual([`Tungro ${tag}`]);
    expect(await docs(`${tag} peñaflor`)).toEqual([`Golden apple snail ${tag}`, `NSIC Rc 222 ${tag}`]);
    expect(await docs(`${tag} corazon`, { collection: 'rice_local_pests' })).toEqual([`Golden apple snail ${tag}`]);
    // Word beginnings only: 'pple' is inside a word, not at its start.
    expect(await docs(`${tag} pple`)).toEqual([]);
    expect(await count({ q: tag })).toEqual({ count: 3, exact: true });
    // Nothing searchable in the text: the search is ignored.
    expect((await list({ q: '%%%', user: account.id })).items).toHaveLength(3);
  });

  it('opens an entry with its changes, within the caller scope', async () => {
    const a = await actor();
    const [id] = await makeEntries(t.ctx, [
      {
        ...a.who,
        action: 'UPDATE',
        collection: 'rice_seed_varieties',
        documentName: 'NSIC Rc 160',
        changes: JSON.stringify({ before: { averageYield: 5.1, season: ['Dry'] }, after: { averageYield: 5.4, season: ['Dry', 'Wet'] } }),
      },
    ]);
    const res = await t.app.inject({ url: `/api/history/${id}`, headers: { cookie: bossCookie } });
    expect(res.json()).toMatchObject({
      id,
      documentName: 'NSIC Rc 160',
      changes: { before: { averageYield: 5.1 }, after: { season: ['Dry', 'Wet'] } },
    });
    const other = await actor();
    const otherCookie = await loginAs(t.app, other.account);
    expect((await t.app.inject({ url: `/api/history/${id}`, headers: { cookie: otherCookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/history/${id}`, headers: { cookie: await loginAs(t.app, a.account) } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/history/missing-entry', headers: { cookie: bossCookie } })).statusCode).toBe(404);
  });

  it('has no route that changes or deletes an entry', async () => {
    const a = await actor();
    const [id] = await makeEntries(t.ctx, [{ ...a.who, documentName: 'kept' }]);
    for (const method of ['DELETE', 'PUT', 'PATCH', 'POST'] as const) {
      const res = await t.app.inject({ method, url: `/api/history/${id}`, headers: { cookie: bossCookie }, payload: {} });
      expect(res.statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'DELETE', url: '/api/history', headers: { cookie: bossCookie } })).statusCode).toBe(404);
    expect(await t.ctx.db.selectFrom('audit_logs').select('documentName').where('id', '=', id!).executeTakeFirst()).toEqual({
      documentName: 'kept',
    });
  });

  it('rejects bad filter values with 400 and the field at fault', async () => {
    const bad: Array<[string, string]> = [
      ['range=yesterday', 'range'],
      ['action=LAUNCH', 'action'],
      ['collection=rice_recipes', 'collection'],
      ['range=custom&from=2024-13-01', 'from'],
      ['range=custom&from=2024-02-30', 'from'],
      ['range=custom&from=20240301', 'from'],
      ['range=all&from=2024-03-01', 'from'],
      ['range=custom', 'from'],
      ['range=custom&from=2024-03-05&to=2024-03-01', 'to'],
      ['limit=0', 'limit'],
      ['limit=1000', 'limit'],
      ['limit=ten', 'limit'],
      [`q=${'a'.repeat(201)}`, 'q'],
      ['action=CREATE&action=DELETE', 'action'],
      ['cursor=not-a-cursor', 'cursor'],
      [`cursor=${Buffer.from('["x", -1]').toString('base64url')}`, 'cursor'],
    ];
    for (const [query, field] of bad) {
      const res = await t.app.inject({ url: `/api/history?${query}`, headers: { cookie: bossCookie } });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('VALIDATION_FAILED');
      expect(Object.keys(res.json().error.fields ?? {}), query).toContain(field);
    }
    expect(
      (await t.app.inject({ url: '/api/history/count?range=custom&from=2024-02-30', headers: { cookie: bossCookie } })).statusCode,
    ).toBe(400);
    expect((await t.app.inject({ url: '/api/history/export.csv?action=nope', headers: { cookie: bossCookie } })).statusCode).toBe(400);
  });
});

describe('cursor paging', () => {
  it('walks every entry once, without gaps or repeats, while new entries arrive', async () => {
    const { account, who } = await actor();
    const base = Date.now() - 10 * DAY;
    // Three entries share each timestamp, so ties fall across page ends.
    const seeded = await makeEntries(
      t.ctx,
      Array.from({ length: 45 }, (_, i) => ({
        ...who,
        timestamp: new Date(base + Math.floor(i / 3) * 1000).toISOString(),
        documentName: `doc ${i}`,
      })),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await list({ user: account.id, limit: 7, cursor });
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
      // Someone works while the list is being read: newer entries arrive at the top.
      await makeEntries(t.ctx, [{ ...who, timestamp: new Date().toISOString(), documentName: `new ${pages}` }]);
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const newestFirst = [...seeded].reverse();
    // The first page was read before any new entry; every seeded entry follows in order.
    expect(seen).toEqual(newestFirst);
    expect(pages).toBe(7);
    // A fresh read shows the new entries on top.
    const fresh = await list({ user: account.id, limit: 10 });
    expect(fresh.items.slice(0, 7).every((i) => i.documentName?.startsWith('new '))).toBe(true);
  });
});

describe('ADMIN scope', () => {
  it('an ADMIN sees only their own entries and never LOGIN, RESTRICT or UNRESTRICT, in list, count and export', async () => {
    const me = await actor('ADMIN', 'Mark Villanueva');
    const other = await actor('ADMIN', 'Liza Santos');
    const tag = `scope${Date.now().toString(36)}`;
    await makeEntries(t.ctx, [
      { ...me.who, action: 'CREATE', documentName: `${tag} mine 1`, timestamp: isoAgo(60) },
      { actorId: me.account.id, action: 'UPDATE', name: `${tag} mine older`, timestamp: isoAgo(50) },
      { ...me.who, action: 'LOGIN', collection: 'accounts', documentName: `${tag} blocked`, timestamp: isoAgo(40) },
      { ...me.who, action: 'RESTRICT', collection: 'accounts', documentName: `${tag} restrict`, timestamp: isoAgo(35) },
      { ...me.who, action: 'UNRESTRICT', collection: 'accounts', documentName: `${tag} unrestrict`, timestamp: isoAgo(30) },
      { ...other.who, action: 'DELETE', documentName: `${tag} theirs`, timestamp: isoAgo(20) },
    ]);
    const cookie = await loginAs(t.app, me.account);
    const mine = (await list({ q: tag }, cookie)).items.map((i) => i.documentName);
    expect(mine).toEqual([`${tag} mine older`, `${tag} mine 1`]);
    expect(await count({ q: tag }, cookie)).toEqual({ count: 2, exact: true });
    expect((await list({ q: tag, action: 'LOGIN' }, cookie)).items).toEqual([]);
    expect((await list({ q: tag, user: other.account.id }, cookie)).items).toEqual([]);
    const exported = parseCsv((await csv({ q: tag }, cookie)).body.replace(/^\ufeff/, ''));
    expect(exported.slice(1).map((r) => r[4])).toEqual([`${tag} mine older`, `${tag} mine 1`]);
    // Without any filter the scope still holds.
    const everything = await all({}, cookie);
    expect(everything.every((i) => i.userId === me.account.id && !['LOGIN', 'RESTRICT', 'UNRESTRICT'].includes(i.action))).toBe(true);
    expect(await count({}, cookie)).toEqual({ count: 2, exact: true });
    // A super admin sees all six.
    expect((await list({ q: tag })).items).toHaveLength(6);
    expect(await count({ q: tag })).toEqual({ count: 6, exact: true });
  });
});

describe('CSV export', () => {
  it('streams the filtered entries with the SPEC columns, file name and formula guard', async () => {
    const { account, who } = await actor('ADMIN', '=HYPERLINK("http://x")');
    await makeEntries(t.ctx, [
      {
        ...who,
        timestamp: '2024-05-01T16:30:05.000Z',
        action: 'UPDATE',
        collection: 'rice_seed_varieties',
        documentName: '+63 917',
        description: 'Changed "yield", then saved\nsecond line',
      },
      {
        ...who,
        timestamp: '2024-05-01T10:00:00.000Z',
        action: 'CREATE',
        collection: 'rice_local_pests',
        documentName: '-minus',
        description: '@mention',
      },
      {
        ...who,
        timestamp: '2024-05-01T09:00:00.000Z',
        action: 'DELETE',
        collection: 'rice_local_diseases',
        documentName: '\tTabbed',
        description: '\rReturn',
      },
      {
        ...who,
        timestamp: 'not a date',
        action: 'CREATE',
        collection: 'accounts',
        documentName: 'Plain, with comma',
        description: 'safe = text',
      },
    ]);
    const res = await csv({ user: account.id });
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="history-logs-${manilaDate()}.csv"`);
    expect(res.body.startsWith('\ufeff')).toBe(true);
    // csv-file.ts: CRLF after every line (a line break inside a cell stays as written).
    expect(res.body.startsWith('\ufeffTimestamp,User,Action,Collection,Document,Description\r\n')).toBe(true);
    expect(res.body.endsWith('\r\n')).toBe(true);
    const rows = parseCsv(res.body.slice(1));
    expect(rows[0]).toEqual(['Timestamp', 'User', 'Action', 'Collection', 'Document', 'Description']);
    expect(rows.slice(1)).toEqual([
      // 'not a date' sorts after digits, so it is the newest by text order.
      [HISTORY.invalidDate, `'=HYPERLINK("http://x")`, 'CREATE', 'User Accounts', 'Plain, with comma', 'safe = text'],
      [
        '2024-05-02 00:30:05',
        `'=HYPERLINK("http://x")`,
        'UPDATE',
        'Rice Varieties',
        "'+63 917",
        'Changed "yield", then saved\nsecond line',
      ],
      ['2024-05-01 18:00:00', `'=HYPERLINK("http://x")`, 'CREATE', 'Rice Pests', "'-minus", "'@mention"],
      ['2024-05-01 17:00:00', `'=HYPERLINK("http://x")`, 'DELETE', 'Rice Diseases', "'\tTabbed", "'\rReturn"],
    ]);
  });

  it('leaves no formula for a spreadsheet that splits at semicolons', async () => {
    const { account, who } = await actor('ADMIN', 'Ana;@cmd');
    const trap = 'Leaf folder;=SUM(1+2)*1000';
    await makeEntries(t.ctx, [
      {
        ...who,
        timestamp: '2024-07-01T00:00:00.000Z',
        action: 'UPDATE',
        collection: 'rice_local_pests',
        documentName: trap,
        description: 'Yield; +5%\n-2 in the dry season',
      },
    ]);
    const body = (await csv({ user: account.id })).body.replace(/^\ufeff/, '');
    expect(body).toContain(`"Leaf folder;'=SUM(1+2)*1000"`);
    const fields: string[] = parseSemicolons(body, { delimiter: ';', relax_quotes: true, relax_column_count: true }).flat();
    expect(fields.some((f) => f.includes('SUM(1+2)'))).toBe(true);
    for (const field of fields) expect(field.replace(/^[\s"]+/, ''), field).not.toMatch(/^[=+\-@]/);
    // Read with its own separator, the cells are as written, the guard's apostrophes aside.
    expect(parseCsv(body)[1]!.slice(1, 5)).toEqual(["Ana;'@cmd", 'UPDATE', 'Rice Pests', "Leaf folder;'=SUM(1+2)*1000"]);
  });

  it('names older entries by their account and keeps unusual characters of a cell', async () => {
    const { account } = await actor('ADMIN', 'Lorna Dizon');
    const sqlite = !t.ctx.config.databaseUrl;
    await makeEntries(t.ctx, [
      {
        actorId: account.id,
        timestamp: '2024-06-01T00:00:01.000Z',
        action: 'UPDATE',
        collection: 'rice_local_pests',
        name: 'Old pest',
        description: 'Ñ "quoted" ¿?',
      },
      {
        performedBy: account.id,
        userName: '',
        timestamp: '2024-06-01T00:00:00.000Z',
        action: 'DELETE',
        collection: null,
        documentName: null,
        description: null,
      },
      // PostgreSQL text cannot hold NUL; SQLite can, and the export must keep it.
      ...(sqlite
        ? [
            {
              actorId: account.id,
              timestamp: '2024-05-31T23:59:59.000Z',
              action: 'CREATE',
              collection: 'accounts',
              documentName: 'nul\u0000inside',
              description: 'x',
            },
          ]
        : []),
    ]);
    const rows = parseCsv((await csv({ user: account.id })).body.slice(1));
    expect(rows.slice(1)).toEqual([
      ['2024-06-01 08:00:01', 'Lorna Dizon', 'UPDATE', 'Rice Pests', 'Old pest', 'Ñ "quoted" ¿?'],
      ['2024-06-01 08:00:00', 'Lorna Dizon', 'DELETE', '', '', ''],
      ...(sqlite ? [['2024-06-01 07:59:59', 'Lorna Dizon', 'CREATE', 'User Accounts', 'nul\u0000inside', 'x']] : []),
    ]);
  });

  it('exports every match across many database batches, in list order', async () => {
    const { account, who } = await actor();
    const base = Date.now() - 5 * DAY;
    await makeEntries(
      t.ctx,
      Array.from({ length: 12_345 }, (_, i) => ({ ...who, timestamp: new Date(base + i * 10).toISOString(), documentName: `bulk ${i}` })),
    );
    const rows = parseCsv((await csv({ user: account.id })).body.slice(1));
    expect(rows).toHaveLength(12_346);
    expect(rows[1]![4]).toBe('bulk 12344');
    expect(rows[12_345]![4]).toBe('bulk 0');
    const expected = Array.from({ length: 12_345 }, (_, i) => `bulk ${12_344 - i}`);
    expect(rows.slice(1).map((r) => r[4])).toEqual(expected);
  });
});

describe('counts and search at volume', () => {
  let big: TestApp;
  let cookie: string;
  beforeAll(async () => {
    big = await createTestApp();
    const admin = await makeAccount(big.ctx, { role: 'SYSTEM_ADMIN' });
    await makeAccount(big.ctx, { fullname: 'Maria Santos' });
    await seedAudit(big.ctx.db, { total: 15_000, days: 100, seed: 7 });
    cookie = await loginAs(big.app, admin);
  }, 180_000);
  afterAll(async () => {
    await big.close();
  });

  const get = async (url: string) => {
    const res = await big.app.inject({ url, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  async function walk(query: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await get(`/api/history?${query}&limit=100${cursor ? `&cursor=${cursor}` : ''}`)) as {
        items: HistoryEntry[];
        nextCursor: string | null;
      };
      ids.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    return ids;
  }

  it('estimates beyond 10,000 matches and counts exactly below', async () => {
    const total = await get('/api/history/count');
    expect(total.exact).toBe(false);
    // The seeded entries rise steadily in time, so the estimate lands near the truth.
    expect(total.count).toBeGreaterThan(12_000);
    expect(total.count).toBeLessThan(18_500);
    const logins = await get('/api/history/count?action=LOGIN');
    const actual = await big.ctx.db
      .selectFrom('audit_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('action', '=', 'LOGIN')
      .executeTakeFirstOrThrow();
    expect(logins).toEqual({ count: Number(actual.n), exact: true });
  });

  it('finds a rare word among many entries and pages a common one the same as a full read', async () => {
    const [rare] = await makeEntries(big.ctx, [{ userName: 'Someone', documentName: 'Kalinangan special', timestamp: isoAgo(50 * DAY) }]);
    const rareIds = await walk('q=kalinang');
    expect(rareIds).toEqual([rare]);
    expect(await get('/api/history/count?q=kalinang')).toEqual({ count: 1, exact: true });

    // 'blast' is in a few percent of the entries: paged results equal a direct read.
    const expected = (
      await big.ctx.db
        .selectFrom('audit_logs')
        .select(['id', 'documentName', 'name', 'description', 'userName', 'userEmail'])
        .orderBy('timestamp', 'desc')
        .orderBy('seq', 'desc')
        .execute()
    )
      .filter((r) => /\bblast/i.test([r.userName, r.userEmail, r.documentName ?? r.name, r.description].join(' ')))
      .map((r) => r.id);
    expect(expected.length).toBeGreaterThan(100);
    expect(await walk('q=blast')).toEqual(expected);
    expect(await get('/api/history/count?q=blast')).toEqual({ count: expected.length, exact: true });

    // Combined with a collection, an action and a date range.
    const combined = await walk('q=rice&collection=rice_local_diseases&action=UPDATE&range=month');
    expect(combined.length).toBeGreaterThan(0);
    const rows = await big.ctx.db
      .selectFrom('audit_logs')
      .select(['id', 'collection', 'action', 'timestamp', 'description'])
      .where('id', 'in', combined)
      .execute();
    expect(rows.every((r) => r.collection === 'rice_local_diseases' && r.action === 'UPDATE' && /\brice/i.test(r.description ?? ''))).toBe(
      true,
    );
  });

  it('pages common, partial, long and single-letter words the same as a full read, imported older entries included', async () => {
    // Entries imported later with older timestamps: their seq no longer follows time.
    const now = Date.now();
    const imported = Array.from({ length: 400 }, (_, i) => ({
      userName: i % 2 ? 'Grace Aquino' : 'Ramon Garcia',
      documentName: i % 3 ? `NSIC Rc ${200 + (i % 40)}` : 'Rice blast',
      description: i % 5 ? `Imported rice record ${i}` : `Imported blast note ${i}`,
      timestamp: isoAgo(((i * 7919) % 100) * DAY + i * 1000, now),
    }));
    await makeEntries(big.ctx, imported);

    const all = await big.ctx.db
      .selectFrom('audit_logs')
      .select(['id', 'userName', 'userEmail', 'documentName', 'name', 'description', 'collection', 'action', 'timestamp'])
      .orderBy('timestamp', 'desc')
      .orderBy('seq', 'desc')
      .execute();
    // The rule, written out independently: every query word begins a word of the entry.
    const words = (r: (typeof all)[number]) =>
      [r.userName, r.userEmail, r.documentName ?? r.name, r.description]
        .join(' ')
        .toLowerCase()
        .split(/[^a-z0-9]+/);
    const expected = (q: string, keep: (r: (typeof all)[number]) => boolean = () => true) =>
      all.filter((r) => keep(r) && q.split(' ').every((t) => words(r).some((w) => w.startsWith(t)))).map((r) => r.id);

    for (const q of ['rice', 'updated rice', 'bla', 'r', 'grace aquino', 'aquin', 'bacterial', 'nsic 22', 'updatedx', 'aquinox']) {
      const want = expected(q);
      if (q.endsWith('x')) expect(want).toEqual([]);
      expect(await walk(`q=${encodeURIComponent(q)}`), q).toEqual(want);
    }
    expect(expected('rice').length).toBeGreaterThan(5000);
    const from = manilaDate(now - 40 * DAY);
    const to = manilaDate(now - 10 * DAY);
    const inRange = (r: (typeof all)[number]) =>
      r.timestamp >= new Date(manilaDayStart(from)).toISOString() && r.timestamp < new Date(manilaDayStart(to) + DAY).toISOString();
    expect(await walk(`q=rice&collection=rice_local_diseases&range=custom&from=${from}&to=${to}`)).toEqual(
      expected('rice', (r) => r.collection === 'rice_local_diseases' && inRange(r)),
    );
    expect(await get('/api/history/count?q=aquinox')).toEqual({ count: 0, exact: true });
  }, 120_000);

  it('exports the whole log in order', async () => {
    const res = await big.app.inject({ url: '/api/history/export.csv', headers: { cookie } });
    const lines = parseCsv(res.body.slice(1));
    const n = await big.ctx.db
      .selectFrom('audit_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(lines.length - 1).toBe(Number(n.n));
  });
});
