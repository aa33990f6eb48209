import type { Kysely, Transaction } from 'kysely';
import { chunks, containsInsensitive } from '../../../db/dialect.js';
import type { Database } from '../../../db/types.js';
import type { TranslationsTable } from '../../../db/types/languages.js';
import { moveStamps } from '../../../platform/cache/stamps.js';

type Db = Kysely<Database> | Transaction<Database>;
export type TranslationRow = TranslationsTable;

/** The stamp (collection, with lang '') that every change to the languages moves. */
export const LANGUAGES_STAMP = 'languages';
/** The name of a collection's stamp in a language (platform/cache/stamps.ts). */
export const translationStamp = (collection: string, lang: string): string => `translations/${collection}/${lang}`;

/** The languages and translations tables: the only module that names them. */
export const translationsRepository = {
  languages: (db: Db) => db.selectFrom('languages').selectAll().orderBy('createdAt').orderBy('code').execute(),

  findLanguage: (db: Db, code: string) => db.selectFrom('languages').selectAll().where('code', '=', code).executeTakeFirst(),

  insertLanguage: (
    trx: Db,
    row: { code: string; name: string; enabled: number; createdAt: string; updatedAt: string; updatedBy: string },
  ) => trx.insertInto('languages').values(row).execute(),

  updateLanguage: (trx: Db, code: string, set: { name: string; enabled: number; updatedAt: string; updatedBy: string }) =>
    trx.updateTable('languages').set(set).where('code', '=', code).execute(),

  /** Translations of these records (every language, or one). */
  async ofRecords(db: Db, collection: string, recordIds: readonly string[], lang?: string): Promise<TranslationRow[]> {
    const out: TranslationRow[] = [];
    for (const part of chunks([...new Set(recordIds)])) {
      let q = db.selectFrom('translations').selectAll().where('collection', '=', collection).where('recordId', 'in', part);
      if (lang) q = q.where('lang', '=', lang);
      out.push(...(await q.execute()));
    }
    return out;
  },

  /** Every translation of a collection (all languages, or one): completeness and exports. */
  ofCollection(db: Db, collection: string, lang?: string) {
    let q = db.selectFrom('translations').selectAll().where('collection', '=', collection);
    if (lang) q = q.where('lang', '=', lang);
    return q.execute();
  },

  /** A collection's translations in a language changed: its stamp moves (in the write's transaction). */
  stamp: (trx: Db, collection: string, langs: readonly string[]): Promise<void> =>
    moveStamps(
      trx,
      langs.map((lang) => translationStamp(collection, lang)),
    ),

  /** Every text of a collection in one language: recordId → field → text. */
  async textsOfCollection(db: Db, collection: string, lang: string): Promise<Map<string, Map<string, string>>> {
    const out = new Map<string, Map<string, string>>();
    for (const r of await db
      .selectFrom('translations')
      .select(['recordId', 'field', 'text'])
      .where('lang', '=', lang)
      .where('collection', '=', collection)
      .execute()) {
      const mine = out.get(r.recordId) ?? new Map<string, string>();
      mine.set(r.field, r.text);
      out.set(r.recordId, mine);
    }
    return out;
  },

  async put(trx: Db, rows: readonly TranslationRow[]): Promise<void> {
    for (const part of chunks(rows, 200)) {
      await trx
        .insertInto('translations')
        .values([...part])
        .onConflict((oc) =>
          oc.columns(['collection', 'recordId', 'field', 'lang']).doUpdateSet((eb) => ({
            text: eb.ref('excluded.text'),
            sourceText: eb.ref('excluded.sourceText'),
            sourceHash: eb.ref('excluded.sourceHash'),
            updatedAt: eb.ref('excluded.updatedAt'),
            updatedBy: eb.ref('excluded.updatedBy'),
          })),
        )
        .execute();
    }
  },

  async remove(trx: Db, keys: ReadonlyArray<{ collection: string; recordId: string; field: string; lang: string }>): Promise<void> {
    for (const k of keys) {
      await trx
        .deleteFrom('translations')
        .where('collection', '=', k.collection)
        .where('recordId', '=', k.recordId)
        .where('field', '=', k.field)
        .where('lang', '=', k.lang)
        .execute();
    }
  },

  /** A record's translations replaced by these (a version restored). */
  async replaceOfRecord(trx: Db, collection: string, recordId: string, rows: readonly TranslationRow[]): Promise<void> {
    await trx.deleteFrom('translations').where('collection', '=', collection).where('recordId', '=', recordId).execute();
    await translationsRepository.put(trx, rows);
  },

  /** Records' translations as versions keep them: `<field>@<language>` to text, per record. */
  async snapshotsOf(db: Db, collection: string, recordIds: readonly string[]): Promise<Map<string, Record<string, string>>> {
    const out = new Map<string, Record<string, string>>(recordIds.map((id) => [id, {}]));
    for (const row of await translationsRepository.ofRecords(db, collection, recordIds)) {
      const mine = out.get(row.recordId) ?? {};
      mine[`${row.field}@${row.lang}`] = row.text;
      out.set(row.recordId, mine);
    }
    return out;
  },

  async accountNames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const part of chunks([...new Set(ids)])) {
      for (const a of await db.selectFrom('accounts').select(['id', 'fullname']).where('id', 'in', part).execute())
        out.set(a.id, a.fullname);
    }
    return out;
  },

  /** Record ids of the collection with a translation containing `term` (any case): a subquery a list's search joins. */
  matching(db: Db, collection: string, term: string) {
    return db
      .selectFrom('translations')
      .select('translations.recordId')
      .where('translations.collection', '=', collection)
      .where((eb) => containsInsensitive(db as Kysely<Database>, eb.ref('translations.text'), term));
  },
};
