import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import { LIMITS } from '../../../../common/limits.js';
import {
  missingFields,
  optionErrors,
  varietyEditRules,
  type IncompleteVarieties,
  type Variety,
  type VarietyInput,
  type VarietyList,
  type VarietyListQuery,
  defaultSortDir,
  type VarietyStoredInput,
} from '../../../../common/schemas/varieties.js';
import { VARIETIES, VARIETY_TOPIC } from '../../../../common/varieties.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand, type Command } from '../../../platform/writes/command.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { assertUpdated } from '../../../platform/writes/versioning.js';
import { getVarietyEnums } from '../maintenance/index.js';
import { draftsRecords } from '../drafts/index.js';
import { columns, diff, fieldsOf, normalize, type Fields } from './fields.js';
import { presentVariety } from './presenter.js';
import { varietiesRepository, type VarietyRow } from './repository.js';
import { VarietySearchCache } from './search/cache.js';
import { perDatabase } from '../../../platform/cache/kept.js';
import { varietySearch, type SearchPage } from './search/search.js';
import { varietyBrowse } from './search/browse.js';
import { pageCount, shownPage } from '../../../platform/http/pages.js';
import { VERSION_TEXTS } from '../../../../common/versions.js';
import { recordVersion } from '../../publishing/versions/index.js';
import { restoreTranslations } from '../translations/index.js';
import { varietySnapshot } from './fields.js';

const COLLECTION = 'rice_seed_varieties';

function cacheSize(): number {
  const raw = process.env.VARIETY_SEARCH_CACHE_SIZE;
  const n = raw === undefined || raw === '' ? 500 : Number.parseInt(raw, 10);
  return Number.isFinite(n) && n >= 0 ? n : 500;
}

/** One cache per database handle, shared by every service of this process (routes, seed, tests). */
const searchCache = (ctx: AppContext) => perDatabase(ctx.db, 'varieties/search', () => new VarietySearchCache(ctx.db, cacheSize()));

export function createVarietiesService(ctx: AppContext) {
  const { db } = ctx;
  const cache = searchCache(ctx);
  const finder = varietySearch(db);
  const browse = varietyBrowse(db);

  /** After commit, every browser is told (the search cache follows the table's stamp). */
  function publish(cmd: Command, id: string, op: 'create' | 'update' | 'delete'): void {
    cmd.publish({ topic: VARIETY_TOPIC, id, op });
  }

  /**
   * An add's or an edit's checks beyond the body's own: on an edit, a field the record lacked may
   * stay empty and the rest is required (varietyEditRules), and option values it holds stay
   * allowed; every option value must be on its current list.
   */
  async function checkValues(input: VarietyInput, stored: VarietyRow | null): Promise<void> {
    const errors: Record<string, string> = {};
    const kept = stored ? presentVariety(stored) : null;
    if (kept) {
      const parsed = varietyEditRules(kept).safeParse(input);
      if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
    }
    for (const [field, message] of Object.entries(optionErrors(input, await getVarietyEnums(db), kept ?? {}))) errors[field] ??= message;
    if (Object.keys(errors).length > 0) invalid(errors);
  }

  /**
   * A second record of a name is saved only when the user confirmed it (the spreadsheet import
   * matches by name). In a save's transaction, under the name's lock: two saves of one new name
   * at once are checked one after the other.
   */
  async function checkName(db: Kysely<Database> | Transaction<Database>, input: VarietyInput, exceptId: string | null): Promise<void> {
    if (input.allowDuplicateName) return;
    const other = await varietiesRepository.withName(db, input.varietyName, exceptId);
    if (other) {
      const message = VARIETIES.duplicate.exists(other.varietyName);
      fail('CONFLICT', message, { varietyName: message }, { reason: 'duplicate_name', otherId: other.id, otherName: other.varietyName });
    }
  }

  /** `form`: the add form of `actor` saved (its name checked, its kept draft gone with the save). */
  async function insert(fields: Fields, actor: Actor | null, form?: VarietyInput): Promise<Variety> {
    const id = newId();
    const now = nowIso();
    const row = await runCommand(ctx, actor, async (trx, cmd) => {
      if (form) {
        await varietiesRepository.lockName(trx, fields.varietyName);
        await checkName(trx, form, null);
        if (actor) await draftsRecords.remove(trx, actor.id, COLLECTION);
      }
      await varietiesRepository.insert(trx, {
        id,
        ...columns(fields),
        isDeleted: 0,
        createdAt: now,
        updatedAt: null,
        deletedAt: null,
        deletedBy: null,
      });
      const auditId = await cmd.audit({
        action: 'CREATE',
        collection: COLLECTION,
        documentId: id,
        documentName: fields.varietyName,
        description: `Created rice variety ${fields.varietyName}`,
        changes: { before: null, after: fields },
      });
      const row = (await varietiesRepository.findLive(trx, id))!;
      await recordVersion(trx, {
        collection: COLLECTION,
        documentId: id,
        recordVersion: Number(row.version),
        auditId,
        actor,
        snapshot: varietySnapshot(row),
        kind: 'create',
      });
      publish(cmd, id, 'create');
      return row;
    });
    return presentVariety(row);
  }

  return {
    /**
     * One page of live varieties matching the search (docs/PRODUCT.md section 9: 20 a page),
     * newest first, or sorted and filtered as the query asks (search/browse.ts).
     */
    list(query: Pick<VarietyListQuery, 'search' | 'page'> & Partial<VarietyListQuery>): Promise<VarietyList> {
      const { search, page } = query;
      const term = search.trim().toLowerCase();
      const sort = query.sort ?? 'added';
      const order = { sort, dir: query.dir ?? defaultSortDir(sort) };
      const filters = {
        tarlac: query.tarlac,
        season: query.season,
        environment: query.environment,
        year: query.year,
        missing: query.missing,
      };
      if (sort !== 'added' || order.dir !== 'desc' || Object.values(filters).some((v) => v !== undefined)) {
        // One count per search and filters serves every sort and page of them.
        const listed = `${term}\u0000${JSON.stringify(filters)}`;
        return cache.get<VarietyList>(`browse\u0000${page}\u0000${JSON.stringify(order)}\u0000${listed}`, term, async () => {
          const pageSize = LIMITS.varietyPageSize;
          const counted = await cache.get(`browse-count\u0000${listed}`, term, () => browse.count(term, filters));
          const found = await browse.page(term, filters, order, counted, page, pageSize);
          const { total, exact } = counted;
          return { items: found.rows.map(presentVariety), total, page: found.page, pageSize, pageCount: pageCount(total, pageSize), exact };
        });
      }
      return cache.get<VarietyList>(`page\u0000${page}\u0000${term}`, term, async () => {
        const pageSize = LIMITS.varietyPageSize;
        // One count per search term serves all its pages; the search that counts brings its page.
        let searched: SearchPage | undefined;
        const counted = await cache.get(
          `count\u0000${term}`,
          term,
          async () => (searched = await finder.search(term, page, pageSize)).counted,
        );
        const { total, exact } = counted;
        const current = searched?.page ?? shownPage(page, total, pageSize);
        const rows = searched ? searched.rows : total === 0 ? [] : await finder.page(term, counted, pageSize, (current - 1) * pageSize);
        return { items: rows.map(presentVariety), total, page: current, pageSize, pageCount: pageCount(total, pageSize), exact };
      });
    },

    /** Needs completing: a page of live records lacking required fields (20 a page, by name). */
    async incomplete(page: number): Promise<IncompleteVarieties> {
      const pageSize = LIMITS.varietyPageSize;
      const first = await varietiesRepository.incomplete(db, pageSize, (page - 1) * pageSize);
      const current = shownPage(page, first.total, pageSize);
      const { rows, total } = current === page ? first : await varietiesRepository.incomplete(db, pageSize, (current - 1) * pageSize);
      return {
        items: rows.map((row) => ({ id: row.id, varietyName: row.varietyName, missing: missingFields(presentVariety(row)) })),
        total,
        page: current,
        pageSize,
        pageCount: pageCount(total, pageSize),
      };
    },

    async get(id: string): Promise<Variety> {
      const row = await varietiesRepository.findLive(db, id);
      if (!row) fail('NOT_FOUND');
      return presentVariety(row);
    },

    /** The add form: every rule of docs/PRODUCT.md section 5, values from the current option lists. */
    async create(input: VarietyInput, actor: Actor | null): Promise<Variety> {
      await checkValues(input, null);
      return insert(normalize(input), actor, input);
    },

    /** A save's checks without writing (a change sent for review): 404, 409 and the option lists, as create and update. */
    async checkSave(id: string | null, input: VarietyInput, version: number | null): Promise<void> {
      const existing = id === null ? null : await varietiesRepository.findLive(db, id);
      if (id !== null && !existing) fail('NOT_FOUND');
      if (existing && version !== null && Number(existing.version) !== version)
        fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: Number(existing.version) });
      await checkValues(input, existing ?? null);
      await checkName(db, input, existing?.id ?? null);
    },

    /**
     * The stored shape (demo data, imports): fields no source gave stay empty. Only the seed
     * and import commands use it; the API always goes through create().
     */
    async createStored(input: VarietyStoredInput, actor: Actor | null): Promise<Variety> {
      return insert(normalize(input), actor);
    },

    /**
     * Saves over `version`; a newer version on the server is a 409 with the current record.
     * A restore of an earlier version is this same save, audited as RESTORE_VERSION.
     */
    async update(
      id: string,
      input: VarietyInput,
      version: number,
      actor: Actor,
      restore?: { from: number; translations?: Record<string, string> },
    ): Promise<Variety> {
      const existing = await varietiesRepository.findLive(db, id);
      if (!existing) fail('NOT_FOUND');
      await checkValues(input, existing);
      const after = normalize(input);
      const now = nowIso();
      const row = await runCommand(ctx, actor, async (trx, cmd) => {
        const before = await varietiesRepository.findLive(trx, id);
        if (!before) fail('NOT_FOUND');
        await varietiesRepository.lockName(trx, after.varietyName);
        await checkName(trx, input, id);
        if (restore?.translations && before.version === version)
          await restoreTranslations(trx, COLLECTION, id, restore.translations, { location: after.location }, actor.id);
        // Versions only grow: a different stored version means someone saved since the form opened.
        const changed =
          before.version === version
            ? await varietiesRepository.updateVersioned(trx, id, version, { ...columns(after), updatedAt: now }, after)
            : 0;
        if (changed === 0) assertUpdated(0, await varietiesRepository.findLive(trx, id), (r: VarietyRow) => presentVariety(r));
        const auditId = await cmd.audit({
          action: restore ? 'RESTORE_VERSION' : 'UPDATE',
          collection: COLLECTION,
          documentId: id,
          documentName: after.varietyName,
          description: restore
            ? VERSION_TEXTS.auditRestored(`rice variety ${after.varietyName}`, restore.from)
            : `Updated rice variety ${after.varietyName}`,
          changes: diff(fieldsOf(presentVariety(before)), after),
          details: restore ? { restoredVersion: restore.from } : undefined,
        });
        const row = (await varietiesRepository.findLive(trx, id))!;
        await recordVersion(trx, {
          collection: COLLECTION,
          documentId: id,
          recordVersion: Number(row.version),
          auditId,
          actor,
          snapshot: varietySnapshot(row),
          kind: restore ? 'restore' : 'edit',
          ...(restore ? { restoredFrom: restore.from } : {}),
        });
        publish(cmd, id, 'update');
        return row;
      });
      return presentVariety(row);
    },

    /** Soft delete: hidden from lists and counts, kept for the history. */
    /** `version`: the edit version the delete was decided on (a delete published from review): 409 when it moved. */
    async remove(id: string, actor: Actor, version?: number): Promise<void> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const existing = await varietiesRepository.findLive(trx, id);
        if (!existing) fail('NOT_FOUND');
        if (version !== undefined && Number(existing.version) !== version) fail('VERSION_CONFLICT');
        const deletedAt = nowIso();
        const changed = await varietiesRepository.softDelete(trx, id, { deletedAt, deletedBy: actor.id });
        if (changed === 0) fail('NOT_FOUND');
        await cmd.audit({
          action: 'DELETE',
          collection: COLLECTION,
          documentId: id,
          documentName: existing.varietyName,
          description: `Deleted rice variety ${existing.varietyName}`,
          changes: { before: fieldsOf(presentVariety(existing)), after: { isDeleted: true, deletedAt, deletedBy: actor.id } },
        });
        publish(cmd, id, 'delete');
      });
    },

    /** Names of live varieties, lower-cased (the seed skips these). */
    liveNames: () => varietiesRepository.liveNames(db),

    /** Another live variety with this name (the form names it while the user types). */
    nameTaken: async (name: string, exceptId: string | null) => ({
      taken: (await varietiesRepository.withName(db, name, exceptId)) ?? null,
    }),

    /** The release years live varieties hold (the seed and the import put them on the year list). */
    yearsInUse: () => varietiesRepository.yearsInUse(db),
  };
}
export type VarietiesService = ReturnType<typeof createVarietiesService>;
