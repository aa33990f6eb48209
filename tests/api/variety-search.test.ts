import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinctSearches, realisticVariety } from '../../bench/variety-data.js';
import { LIMITS } from '../../common/limits.js';
import { isPostgres, likePattern } from '../../server/db/dialect.js';
import { tidyVarietySearch } from '../../server/db/variety-search.js';
import { roundEstimate } from '../../server/platform/support/estimates.js';
import { varietiesRepository } from '../../server/modules/content/varieties/repository.js';
import { shownPage } from '../../server/platform/http/pages.js';
import { countMatches, pageOfMatches, searchPage, varietySearch } from '../../server/modules/content/varieties/search/search.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { varietyBody } from '../fixtures/varieties.js';

let t: TestApp;
let cookie: string;
const ROWS = 320;
const base = Date.parse('2024-01-01T00:00:00Z');

/** Names that test the edges of "contains": wildcards, quotes, escapes, accents, emoji, line breaks. */
const ODD_NAMES = ['Sto. Niño 100%', 'PSB_Rc 7', 'Back\\slash "quoted"', 'Ñaño Ñ', 'Palay 🌾 Ginto', "O'Brien  two  spaces", 'a%b_c', '""'];

beforeAll(async () => {
  t = await createTestApp();
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  const rows = Array.from({ length: ROWS }, (_, i) => realisticVariety(i, new Date(base + i * 60_000).toISOString()));
  ODD_NAMES.forEach((name, i) => Object.assign(rows[i * 7]!, { varietyName: name }));
  await t.ctx.db.transaction().execute((trx) => varietiesRepository.insertMany(trx, rows));
});
afterAll(async () => {
  await t.close();
});

/**
 * The search as it was before the trigram index: LIKE over every live row's text. Past `cap`
 * matches the total is estimated as it always was: the share of matches among the newest 1000
 * live rows, times the live rows, rounded, at least cap + 1 and at most the live rows.
 */
async function searchedBefore(term: string, page: number, cap?: number) {
  const db = t.ctx.db;
  const where = sql<boolean>`"isDeleted" = 0 and "searchText" like ${likePattern(term)} escape '\\'`;
  const {
    rows: [count],
  } = await sql<{ n: number }>`select count(*) as n from rice_seed_varieties where ${where}`.execute(db);
  let total = Number(count!.n);
  if (cap !== undefined && total > cap && Array.from(term).length > 3) {
    const { rows: newest } = await sql<{ text: string }>`select "searchText" as text from rice_seed_varieties where "isDeleted" = 0
      order by "createdAt" desc, id desc limit 1000`.execute(db);
    const {
      rows: [all],
    } = await sql<{ n: number }>`select count(*) as n from rice_seed_varieties where "isDeleted" = 0`.execute(db);
    const live = Number(all!.n);
    const share = newest.filter((r) => r.text.includes(term)).length / newest.length;
    total = Math.min(live, Math.max(cap + 1, roundEstimate(share * live)));
  }
  const pageCount = Math.max(1, Math.ceil(total / LIMITS.varietyPageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  const { rows } = await sql<{ id: string }>`select id from rice_seed_varieties where ${where}
    order by "createdAt" desc, id desc limit ${LIMITS.varietyPageSize} offset ${(current - 1) * LIMITS.varietyPageSize}`.execute(db);
  return { total, ids: rows.map((r) => r.id) };
}

/** The search as the list runs it (the total, and the page, fetched with it where the count's query can), and the count and page read apart. */
async function searchedNow(term: string, page: number, cap?: number) {
  const found = await searchPage(t.ctx.db, term, page, LIMITS.varietyPageSize, cap);
  const counted = await countMatches(t.ctx.db, term, cap);
  expect(found.counted, JSON.stringify(term)).toEqual(counted);
  expect(found.page).toBe(shownPage(page, counted.total, LIMITS.varietyPageSize));
  const apart =
    counted.total === 0
      ? []
      : await pageOfMatches(t.ctx.db, term, counted, LIMITS.varietyPageSize, (found.page - 1) * LIMITS.varietyPageSize);
  expect(found.rows, JSON.stringify(term)).toEqual(apart);
  return { total: counted.total, exact: counted.exact, ids: found.rows.map((r) => r.id) };
}

/** What staff type, pieces of what is stored (across field breaks too), and the odd cases. */
async function searchesToTry(n: number, seed: number): Promise<string[]> {
  const texts = (await t.ctx.db.selectFrom('rice_seed_varieties').select('searchText').execute()).map((r) => r.searchText);
  const typed = distinctSearches(ROWS, seed);
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const terms: string[] = ['', 'ñ', 'Ñ', '%', '_', '\\', '"', '🌾', "o'b", '100%', 'a%b', 'rc\n', 'zzzz', 'nsic rc 1', 'psb'];
  for (let i = 0; terms.length < n; i += 1) {
    if (i % 2 === 0) terms.push(new URL(`http://x${typed(i)}`).searchParams.get('search')!);
    else {
      const chars = Array.from(texts[Math.floor(next() * texts.length)]!);
      const at = Math.floor(next() * chars.length);
      terms.push(chars.slice(at, at + 1 + Math.floor(next() * 9)).join(''));
    }
  }
  return terms.map((s) => s.trim().toLowerCase()).filter((s, i) => i < 15 || s !== '');
}

async function expectSameAsBefore(terms: string[], cap?: number): Promise<void> {
  for (const [i, term] of terms.entries()) {
    const page = 1 + (i % 3);
    const [before, now] = [await searchedBefore(term, page, cap), await searchedNow(term, page, cap)];
    const { exact, ...found } = now;
    expect({ term, page, ...found }, JSON.stringify(term)).toEqual({ term, page, ...before });
    if (cap === undefined) expect(exact, JSON.stringify(term)).toBe(true);
  }
}

describe('variety search through the trigram index and the kept counts', () => {
  it('finds the same rows, in the same order, with the same totals as the LIKE scan, over hundreds of searches', async () => {
    const terms = await searchesToTry(300, 7);
    expect(terms.length).toBeGreaterThan(250);
    await expectSameAsBefore(terms);
    // The searches reach every route: counted from the kept counts, found through the index, scanned in order.
    const routes = await Promise.all(terms.map((term) => countMatches(t.ctx.db, term)));
    expect(routes.some((r) => r.lookup?.trigrams && r.total > 0)).toBe(true);
    expect(routes.some((r) => !r.lookup && r.total > 20)).toBe(true);
    expect(routes.filter((r) => r.total === 0).length).toBeGreaterThan(0);
  });

  it('stays right whoever writes: the API, the trash, the import writing rows directly, a hard delete', async () => {
    const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
      t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    const created = (await call('POST', '/api/varieties', varietyBody({ varietyName: 'Zyx Quorn 5', location: 'Anao' }))).json();
    const edited = (
      await call('PUT', `/api/varieties/${created.id}`, varietyBody({ varietyName: 'Zyx Quill 6', version: created.version }))
    ).json();
    expect(edited.varietyName).toBe('Zyx Quill 6');
    expect((await call('DELETE', '/api/varieties/bench-000003')).statusCode).toBe(204);
    expect((await call('DELETE', '/api/varieties/bench-000010')).statusCode).toBe(204);
    const superAdmin = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
    const restored = await t.app.inject({
      method: 'POST',
      url: '/api/trash/rice_seed_varieties/bench-000010/restore',
      headers: { cookie: superAdmin },
    });
    expect(restored.statusCode).toBe(204);
    // As the import writes: no searchText (the database fills it in), then a field changed in place.
    await t.ctx.db
      .insertInto('rice_seed_varieties')
      .values({
        id: 'imported-1',
        varietyName: 'Imported Qwerty 9',
        season: '[]',
        environment: '[]',
        createdAt: new Date(base + 10 * 60_000 + 1).toISOString(),
      })
      .execute();
    await t.ctx.db.updateTable('rice_seed_varieties').set({ location: 'Qwertyville' }).where('id', '=', 'bench-000020').execute();
    await t.ctx.db.deleteFrom('rice_seed_varieties').where('id', '=', 'bench-000030').execute();

    for (const [term, total] of [
      ['zyx', 1],
      ['quorn', 0],
      ['quill', 1],
      ['qwerty', 2],
      ['qwertyville', 1],
    ] as const) {
      expect((await searchedNow(term, 1)).total, term).toBe(total);
    }
    expect((await searchedNow('', 1)).total).toBe((await searchedBefore('', 1)).total);
    await expectSameAsBefore(await searchesToTry(120, 11));
  });

  it('keeps the counts right under parallel saves on every engine (no lost update, no deadlock)', async () => {
    const ids = Array.from({ length: 16 }, (_, i) => `bench-${String(100 + i).padStart(6, '0')}`);
    const saves = await Promise.all(
      ids.map(async (id, i) => {
        const current = (await t.app.inject({ method: 'GET', url: `/api/varieties/${id}`, headers: { cookie } })).json();
        return t.app.inject({
          method: 'PUT',
          url: `/api/varieties/${id}`,
          headers: { cookie },
          payload: varietyBody({ varietyName: `Parallel Kx${i} Rc`, version: current.version }),
        });
      }),
    );
    expect(saves.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
    expect((await searchedNow('parallel kx', 1)).total).toBe(16);
    await expectSameAsBefore(['pa', 'kx', 'x1', 'parallel kx1', ...(await searchesToTry(60, 13))]);
  });

  it('estimates past the cap, from the share of matches among the newest rows, and says so', async () => {
    const exact = await searchedBefore('nsic', 1);
    expect(exact.total).toBeGreaterThan(100);
    const estimated = await countMatches(t.ctx.db, 'nsic', 50);
    expect(estimated.exact).toBe(false);
    expect(estimated.total).toBeGreaterThan(50);
    expect(Math.abs(estimated.total - exact.total) / exact.total).toBeLessThan(0.25);
    // Short texts are counted exactly whatever their number: the database keeps their counts.
    expect(await countMatches(t.ctx.db, 'rc', 50)).toMatchObject({ total: (await searchedBefore('rc', 1)).total, exact: true });
  });

  it('pages past the cap through the index, newest first, with the estimate as before', async () => {
    // A small cap puts most searches past it: their pages come through the index in its order.
    const terms = await searchesToTry(200, 17);
    await expectSameAsBefore(terms, 12);
    const routes = await Promise.all(terms.map((term) => countMatches(t.ctx.db, term, 12)));
    expect(routes.filter((r) => !r.exact && r.lookup).length).toBeGreaterThan(20);
  });

  it('keeps pages in order with rows that arrive out of it, and after the index is put back in order', async () => {
    const db = t.ctx.db;
    // Older than every row, written newest first: each one arrives out of the list's order.
    const late = Array.from({ length: 230 }, (_, i) => realisticVariety(5000 + i, new Date(base - (i + 1) * 60_000).toISOString())).map(
      (v, i) => ({ ...v, id: `late-${String(i).padStart(4, '0')}`, varietyName: `Late Mabini ${i % 40}` }),
    );
    await db.transaction().execute((trx) => varietiesRepository.insertMany(trx, late));
    // Same time as another row, with an id that sorts before it; and one put back from the trash.
    await db
      .insertInto('rice_seed_varieties')
      .values({ ...realisticVariety(6000, new Date(base + 5 * 60_000).toISOString()), id: 'bench-000004a', searchText: '' })
      .execute();
    const superAdmin = await loginAs(t.app, await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' }));
    expect((await t.app.inject({ method: 'DELETE', url: '/api/varieties/bench-000040', headers: { cookie } })).statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/trash/rice_seed_varieties/bench-000040/restore', headers: { cookie: superAdmin } }))
        .statusCode,
    ).toBe(204);
    // SQLite's index keeps the list's order (PostgreSQL's has none): these rows are listed as out of it.
    const sqlite = !isPostgres(db);
    const unordered = async () =>
      Number((await sql<{ n: number }>`select count(*) as n from variety_search_disorder`.execute(db)).rows[0]!.n);
    if (sqlite) expect(await unordered()).toBeGreaterThan(200);

    const terms = ['late mabini', 'mabini 1', 'late', 'rc', 'nsic rc 1', ...(await searchesToTry(80, 19))];
    await expectSameAsBefore(terms);
    await expectSameAsBefore(terms, 12);
    await tidyVarietySearch(db);
    if (sqlite) expect(await unordered()).toBe(0);
    await expectSameAsBefore(terms);
    await expectSameAsBefore(terms, 12);
  });

  it("runs the list's searches beside the server's thread: the same answers, never a save still under way, never waiting for it", async () => {
    const db = t.ctx.db;
    const finder = varietySearch(db);
    for (const [i, term] of (await searchesToTry(120, 23)).entries()) {
      const found = await finder.search(term, 1 + (i % 3), 20);
      expect(found, JSON.stringify(term)).toEqual(await searchPage(db, term, 1 + (i % 3), 20));
      const { counted } = found;
      if (counted.total > 0)
        expect(await finder.page(term, counted, 20, 20), JSON.stringify(term)).toEqual(await pageOfMatches(db, term, counted, 20, 20));
    }
    // On SQLite the server's connection is held by the open transaction: a search on it would
    // wait for the commit. A reader thread answers at once, from what was committed.
    await db.transaction().execute(async (trx) => {
      await varietiesRepository.insertMany(trx, [
        { ...realisticVariety(7000, new Date(base).toISOString()), varietyName: 'Uncommitted Xylo 1' },
      ]);
      expect((await finder.search('uncommitted xylo', 1, 20)).counted).toMatchObject({ total: 0 });
    });
    expect((await finder.search('uncommitted xylo', 1, 20)).counted).toMatchObject({ total: 1, exact: true });
  });

  it('answers the list through the API with the same rows and total, and exact: true below the cap', async () => {
    for (const search of ['NSIC Rc 1', 'camiling', 'ñ', '']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/varieties?search=${encodeURIComponent(search)}&page=2`,
        headers: { cookie },
      });
      const before = await searchedBefore(search.trim().toLowerCase(), 2);
      expect(res.json()).toMatchObject({
        total: before.total,
        exact: true,
        items: before.ids.map((id) => expect.objectContaining({ id })),
      });
    }
  });
});

describe('a term whose every trigram is common but which itself is rare', () => {
  let own: TestApp;
  beforeAll(async () => {
    own = await createTestApp();
    // Every row holds each trigram of "qua zeta qua"; three hold the whole of it.
    const rows = Array.from({ length: 30 }, (_, i) => ({
      ...realisticVariety(i, new Date(base + i * 60_000).toISOString()),
      varietyName: i % 10 === 3 ? `Qua Zeta Qua ${i}` : `Zeta Qua ${i}`,
      releaseName: 'Qua Zeta',
    }));
    await own.ctx.db.transaction().execute((trx) => varietiesRepository.insertMany(trx, rows));
  });
  afterAll(async () => {
    await own.close();
  });

  it("is counted and paged alike whether looked up through its trigrams or in the list's order", async () => {
    const db = own.ctx.db;
    const { rows } = await sql<{
      id: string;
    }>`select id from rice_seed_varieties where "isDeleted" = 0 and "searchText" like ${likePattern('qua zeta qua')}
      order by "createdAt" desc, id desc`.execute(db);
    const ids = rows.map((r) => r.id);
    expect(ids).toHaveLength(3);
    // With a cap of 12 every trigram is in more rows than the cap and in a third of them or more:
    // PostgreSQL looks the term up in the list's order (the count scans, the page is read in order).
    for (const cap of [1000, 12]) {
      for (const page of [1, 2]) {
        const found = await searchPage(db, 'qua zeta qua', page, 2, cap);
        expect(found.counted).toMatchObject({ total: 3, exact: true });
        expect(found.counted.lookup === undefined).toBe(isPostgres(db) && cap === 12);
        expect(found.rows.map((r) => r.id)).toEqual(ids.slice((page - 1) * 2, page * 2));
        expect(await pageOfMatches(db, 'qua zeta qua', found.counted, 2, (page - 1) * 2)).toEqual(found.rows);
      }
    }
  });
});
