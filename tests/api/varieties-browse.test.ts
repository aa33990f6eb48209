import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realisticVariety } from '../../bench/variety-data.js';
import { LIMITS } from '../../common/limits.js';
import { COMPLETABLE_VARIETY_FIELDS, missingFields, VARIETY_SORTS, type Variety } from '../../common/schemas/varieties.js';
import { varietiesRepository } from '../../server/modules/content/varieties/repository.js';
import { presentVariety } from '../../server/modules/content/varieties/presenter.js';
import { browseCount, browsePage, type BrowseOrder } from '../../server/modules/content/varieties/search/browse.js';
import type { VarietyFilters } from '../../server/modules/content/varieties/search/repository.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';

let t: TestApp;
let cookie: string;
const ROWS = 300;
const base = Date.parse('2024-01-01T00:00:00Z');
const PAGE = LIMITS.varietyPageSize;

beforeAll(async () => {
  t = await createTestApp();
  cookie = await loginAs(t.app, await makeAccount(t.ctx, { role: 'ADMIN' }));
  const rows = Array.from({ length: ROWS }, (_, i) => {
    const row = realisticVariety(i, new Date(base + i * 60_000).toISOString());
    // Records as old data holds them: fields left out, a year no option list has, ties on a sort column.
    if (i % 3 === 1) Object.assign(row, { breedingCode: null });
    if (i % 11 === 0) Object.assign(row, { plantHeight: null, maturityDays: null });
    if (i % 13 === 0) Object.assign(row, { yearRelease: '1997', season: '[]' });
    if (i % 17 === 0) Object.assign(row, { location: '   ' });
    return row;
  });
  await t.ctx.db.transaction().execute((trx) => varietiesRepository.insertMany(trx, rows));
});
afterAll(async () => {
  await t.close();
});

type Sort = (typeof VARIETY_SORTS)[number];
const KEY: Record<Sort, (v: Variety) => string | number | null> = {
  name: (v) => v.varietyName,
  year: (v) => v.yearRelease,
  maturity: (v) => v.maturityDays,
  yield: (v) => v.averageYield,
  added: (v) => v.createdAt,
};

/** The browse worked out in JavaScript over every live row: filtered, then sorted with empty values first ascending. */
async function expected(term: string, filters: VarietyFilters, sort: Sort, dir: 'asc' | 'desc') {
  const rows = (await t.ctx.db.selectFrom('rice_seed_varieties').selectAll().where('isDeleted', '=', 0).execute()).filter((r) =>
    r.searchText.includes(term),
  );
  const kept = rows
    .map(presentVariety)
    .filter(
      (v) =>
        (filters.tarlac === undefined || v.recommendedInTarlac === (filters.tarlac === 'yes')) &&
        (filters.year === undefined || v.yearRelease === filters.year) &&
        (filters.season === undefined || v.season.includes(filters.season)) &&
        (filters.environment === undefined || v.environment.includes(filters.environment)) &&
        (filters.missing === undefined || missingFields(v).length > 0),
    );
  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  kept.sort((a, b) => {
    const [x, y] = [KEY[sort](a), KEY[sort](b)];
    const byKey = x === y ? 0 : x === null ? -1 : y === null ? 1 : cmp(x, y);
    return (dir === 'asc' ? 1 : -1) * (byKey || cmp(a.id, b.id));
  });
  return kept.map((v) => v.id);
}

/** The list as the service reads it: the count, then the page. */
async function browse(term: string, filters: VarietyFilters, order: BrowseOrder, page: number, cap?: number) {
  const counted = await browseCount(t.ctx.db, term, filters, cap);
  const found = await browsePage(t.ctx.db, term, filters, order, counted, page, PAGE);
  return { counted: { total: counted.total, exact: counted.exact }, ...found };
}

const FILTER_SETS: VarietyFilters[] = [
  {},
  { tarlac: 'yes' },
  { tarlac: 'no', season: 'Wet' },
  { year: '1997' },
  { missing: 'yes' },
  { environment: 'Upperland', missing: 'yes' },
  { season: 'Dry', environment: 'Rainfed Lowland', tarlac: 'yes' },
  { year: '2030' },
];
const TERMS = ['', 'nsic', 'rc 12', 'camiling', 'philrice', 'zz'];

describe('the varieties list sorted and filtered', () => {
  it('lists the same rows in the same order as the rule worked out over every row, on every sort, filter and term', async () => {
    let compared = 0;
    for (const [i, filters] of FILTER_SETS.entries()) {
      for (const [j, term] of TERMS.entries()) {
        const sort = VARIETY_SORTS[(i + j) % VARIETY_SORTS.length]!;
        const dir = (i + j) % 2 === 0 ? 'asc' : 'desc';
        const ids = await expected(term, filters, sort, dir);
        const pages = Math.max(1, Math.ceil(ids.length / PAGE));
        for (const page of new Set([1, 2, pages])) {
          const found = await browse(term, filters, { sort, dir }, page);
          const label = JSON.stringify({ term, filters, sort, dir, page });
          expect(found.counted, label).toEqual({ total: ids.length, exact: true });
          expect(
            found.rows.map((r) => r.id),
            label,
          ).toEqual(ids.slice((found.page - 1) * PAGE, found.page * PAGE));
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(80);
  });

  it('estimates past the cap from the term and the filters, and still lists the rows in order', async () => {
    const ids = await expected('nsic', { tarlac: 'yes' }, 'name', 'asc');
    const found = await browse('nsic', { tarlac: 'yes' }, { sort: 'name', dir: 'asc' }, 1, 30);
    expect(found.counted.exact).toBe(false);
    expect(found.counted.total).toBeGreaterThan(30);
    expect(found.rows.map((r) => r.id)).toEqual(ids.slice(0, PAGE));
  });

  it('serves sort and filters through the API, refusing values it does not know', async () => {
    const get = (query: string) => t.app.inject({ method: 'GET', url: `/api/varieties?${query}`, headers: { cookie } });
    const res = await get('sort=maturity&dir=desc&tarlac=yes&season=Wet&page=2');
    expect(res.statusCode).toBe(200);
    const ids = await expected('', { tarlac: 'yes', season: 'Wet' }, 'maturity', 'desc');
    expect(res.json()).toMatchObject({ total: ids.length, page: 2, exact: true });
    expect(res.json().items.map((v: Variety) => v.id)).toEqual(ids.slice(PAGE, 2 * PAGE));
    for (const bad of ['sort=colour', 'dir=up', 'tarlac=maybe', 'missing=no', 'year=']) {
      const refused = await get(bad);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().error.message, bad).toBeTruthy();
    }
  });

  it('counts missing fields in the database as missingFields counts them, for each required field', async () => {
    const full = realisticVariety(9000, new Date(base).toISOString());
    const empties: Record<string, unknown> = {
      season: '[]',
      environment: '[]',
      maturityDays: null,
      averageYield: null,
      maxYield: null,
      plantHeight: null,
      tillers: null,
    };
    for (const [i, field] of COMPLETABLE_VARIETY_FIELDS.entries()) {
      const id = `lacks-${field}`;
      const empty = field in empties ? empties[field] : i % 2 === 0 ? null : ' ';
      await varietiesRepository.insert(t.ctx.db, { ...full, id, varietyName: `Lacks ${field}`, [field]: empty });
      const row = await t.ctx.db.selectFrom('rice_seed_varieties').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(missingFields(presentVariety(row)), field).toEqual([field]);
      expect(Number(row.missingFields), field).toBe(1);
      // Filled in by an update, by any writer: the count follows.
      await t.ctx.db
        .updateTable('rice_seed_varieties')
        .set({ [field]: full[field as keyof typeof full] })
        .where('id', '=', id)
        .execute();
      const filled = await t.ctx.db
        .selectFrom('rice_seed_varieties')
        .select('missingFields')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(Number(filled.missingFields), field).toBe(0);
      await t.ctx.db.deleteFrom('rice_seed_varieties').where('id', '=', id).execute();
    }
  });

  it('counts filtered rows rightly after writes of every kind, by any writer', async () => {
    const db = t.ctx.db;
    const counts = async () => {
      const found = [];
      for (const filters of FILTER_SETS) found.push((await browseCount(db, '', filters)).total);
      return found;
    };
    const expectedCounts = async () => {
      const found = [];
      for (const filters of FILTER_SETS) found.push((await expected('', filters, 'added', 'asc')).length);
      return found;
    };
    const ids = Array.from({ length: 6 }, (_, i) => `counted-${i}`);
    const rows = ids.map((id, i) => ({ ...realisticVariety(9100 + i, new Date(base).toISOString()), id, varietyName: `Counted ${i}` }));
    Object.assign(rows[0]!, { yearRelease: null, season: '[]', environment: '[]' });
    Object.assign(rows[1]!, { yearRelease: '1997', recommendedInTarlac: 1 });
    await db.transaction().execute((trx) => varietiesRepository.insertMany(trx, rows));
    expect(await counts()).toEqual(await expectedCounts());
    // Trash and back, a field changed and emptied, a year given, a row removed for good.
    await db.updateTable('rice_seed_varieties').set({ isDeleted: 1 }).where('id', 'in', [ids[1]!, ids[2]!]).execute();
    expect(await counts()).toEqual(await expectedCounts());
    await db.updateTable('rice_seed_varieties').set({ isDeleted: 0 }).where('id', '=', ids[2]!).execute();
    await db
      .updateTable('rice_seed_varieties')
      .set({ season: '["Wet","Dry"]', recommendedInTarlac: 0 })
      .where('id', '=', ids[3]!)
      .execute();
    await db
      .updateTable('rice_seed_varieties')
      .set({ maturityDays: null, environment: '["Upperland"]' })
      .where('id', '=', ids[4]!)
      .execute();
    await db.updateTable('rice_seed_varieties').set({ yearRelease: '1997' }).where('id', '=', ids[0]!).execute();
    await db.deleteFrom('rice_seed_varieties').where('id', '=', ids[5]!).execute();
    expect(await counts()).toEqual(await expectedCounts());
    await db.deleteFrom('rice_seed_varieties').where('id', 'in', ids).execute();
    expect(await counts()).toEqual(await expectedCounts());
  });
});

describe('exporting the selected varieties', () => {
  it('exports the live ones among the ids, in the order given, and refuses too many', async () => {
    const get = (query: string) => t.app.inject({ method: 'GET', url: `/api/varieties/export?format=csv&${query}`, headers: { cookie } });
    const res = await get(`ids=${encodeURIComponent('bench-000005,bench-000002,no-such-id,bench-000005')}`);
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split(/\r?\n/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^PSB Rc 105,/);
    expect(lines[2]).toMatch(/^NSIC Rc 102,/);
    const many = Array.from({ length: 501 }, (_, i) => `id-${i}`).join(',');
    const refused = await get(`ids=${many}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/at most 500/);
  });
});
