import {
  LANGUAGE_CODE,
  LANGUAGE_LIMITS,
  LANGUAGE_TEXTS,
  SOURCE_LANGUAGE,
  TRANSLATED_COLLECTIONS,
  TRANSLATED_FIELDS,
  optionFieldLabel,
  type TranslatedCollection,
} from '../../../../common/languages.js';
import type { Completeness, Language, RecordTranslations, TranslationStatusList } from '../../../../common/schemas/languages.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { nowIso } from '../../../platform/support/clock.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand } from '../../../platform/writes/command.js';
import { translatedCollection, translatedCollections, type SourceRecord, type TranslatedPart } from './adapters.js';
import { LANGUAGES_STAMP, translationsRepository as repo } from './repository.js';
import { sourceHash, touchUsers, writeTranslations, type RecordTranslation } from './writes.js';

export const LANGUAGES_TOPIC = 'languages';

const fieldLabel = (collection: TranslatedCollection, field: string) =>
  collection === 'maintenance' ? optionFieldLabel(field) : (TRANSLATED_FIELDS[collection][field] ?? field);

/** Languages (File Maintenance), a record's translations, completeness, and the editor's saves. */
async function emptySource(part: TranslatedPart, db: AppContext['db'], recordId: string): Promise<SourceRecord | null> {
  const found = (await part.withoutText?.(db, recordId)) ?? null;
  return found && { ...found, fields: {} };
}

export function createTranslationsService(ctx: AppContext) {
  const { db } = ctx;

  async function languages(): Promise<Language[]> {
    return (await repo.languages(db)).map((l) => ({ code: l.code, name: l.name, enabled: Number(l.enabled) === 1 }));
  }

  async function requireLanguage(code: string): Promise<Language> {
    const found = (await languages()).find((l) => l.code === code);
    if (!found) fail('NOT_FOUND', LANGUAGE_TEXTS.errors.unknownLanguage);
    return found;
  }

  return {
    languages,
    requireLanguage,

    async addLanguage(input: { code: string; name: string }, actor: Actor): Promise<Language[]> {
      const code = input.code.trim().toLowerCase();
      if (!LANGUAGE_CODE.test(code)) invalid({ code: LANGUAGE_TEXTS.errors.code });
      if (code === SOURCE_LANGUAGE) invalid({ code: LANGUAGE_TEXTS.errors.english });
      await runCommand(ctx, actor, async (trx, cmd) => {
        const all = await repo.languages(trx);
        if (all.some((l) => l.code === code)) fail('CONFLICT', LANGUAGE_TEXTS.errors.exists, { code: LANGUAGE_TEXTS.errors.exists });
        if (all.length >= LANGUAGE_LIMITS.maxLanguages) invalid({ code: LANGUAGE_TEXTS.errors.tooMany });
        const now = nowIso();
        // Not in use until turned on: the farmer app would offer a language with nothing translated.
        await repo.insertLanguage(trx, { code, name: input.name.trim(), enabled: 0, createdAt: now, updatedAt: now, updatedBy: actor.id });
        await repo.stamp(trx, LANGUAGES_STAMP, ['']);
        await cmd.audit({
          action: 'CREATE',
          collection: 'languages',
          documentId: code,
          documentName: input.name.trim(),
          description: `Added the language ${input.name.trim()} (${code})`,
          changes: { before: null, after: { code, name: input.name.trim(), enabled: false } },
        });
        cmd.publish({ topic: LANGUAGES_TOPIC, id: code, op: 'create' });
      });
      return languages();
    },

    async updateLanguage(code: string, input: { name: string; enabled: boolean }, actor: Actor): Promise<Language[]> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const before = await repo.findLanguage(trx, code);
        if (!before) fail('NOT_FOUND', LANGUAGE_TEXTS.errors.unknownLanguage);
        await repo.updateLanguage(trx, code, {
          name: input.name.trim(),
          enabled: input.enabled ? 1 : 0,
          updatedAt: nowIso(),
          updatedBy: actor.id,
        });
        await repo.stamp(trx, LANGUAGES_STAMP, ['']);
        // Taken in or out of use: phones asking in it get every record again.
        if ((Number(before.enabled) === 1) !== input.enabled) await touchUsers(trx, cmd, translatedCollections(ctx), 'all', nowIso());
        await cmd.audit({
          action: 'UPDATE',
          collection: 'languages',
          documentId: code,
          documentName: input.name.trim(),
          description: `Changed the language ${input.name.trim()} (${code})`,
          changes: {
            before: { name: before.name, enabled: Number(before.enabled) === 1 },
            after: { name: input.name.trim(), enabled: input.enabled },
          },
        });
        cmd.publish({ topic: LANGUAGES_TOPIC, id: code, op: 'update' });
      });
      return languages();
    },

    /** A record's English and its translations, field by field, each marked when the English changed since. */
    async ofRecord(collection: TranslatedCollection, recordId: string): Promise<RecordTranslations> {
      const part = translatedCollection(ctx, collection);
      // A record with nothing to translate yet has no fields here, not a 404.
      const source = (await part.sources(db, [recordId])).get(recordId) ?? (await emptySource(part, db, recordId));
      if (!source) fail('NOT_FOUND');
      const rows = await repo.ofRecords(db, collection, [recordId]);
      const names = await repo.accountNames(
        db,
        rows.map((r) => r.updatedBy).filter((id): id is string => Boolean(id)),
      );
      return {
        collection,
        recordId,
        name: source.name,
        version: source.version,
        languages: await languages(),
        fields: Object.entries(source.fields).map(([field, english]) => ({
          field,
          label: fieldLabel(collection, field),
          source: english,
          translations: Object.fromEntries(
            rows
              .filter((r) => r.field === field)
              .map((r) => [
                r.lang,
                {
                  text: r.text,
                  stale: r.sourceHash !== sourceHash(english),
                  sourceThen: r.sourceText,
                  updatedAt: r.updatedAt,
                  updatedByName: r.updatedBy ? (names.get(r.updatedBy) ?? null) : null,
                },
              ]),
          ),
        })),
      };
    },

    /** The editor's save of one record in one language: a version of the record, audited. */
    async save(collection: TranslatedCollection, change: RecordTranslation, actor: Actor): Promise<RecordTranslations> {
      await requireLanguage(change.lang);
      const part = translatedCollection(ctx, collection);
      await runCommand(ctx, actor, (trx, cmd) => writeTranslations(trx, cmd, translatedCollections(ctx), part, [change], actor));
      return this.ofRecord(collection, change.recordId);
    },

    /** Per language and collection: the farmer-facing fields with English, and how many are translated, stale or missing. */
    async completeness(): Promise<Completeness> {
      const langs = await languages();
      const items = [];
      for (const [collection, part] of translatedCollections(ctx)) {
        const sources = await part.sources(db);
        const rows = await repo.ofCollection(db, collection);
        for (const lang of langs) {
          let total = 0;
          let translated = 0;
          let stale = 0;
          const mine = new Map(rows.filter((r) => r.lang === lang.code).map((r) => [`${r.recordId}\u0000${r.field}`, r]));
          for (const [id, source] of sources) {
            for (const [field, english] of Object.entries(source.fields)) {
              total += 1;
              const row = mine.get(`${id}\u0000${field}`);
              if (!row) continue;
              translated += 1;
              if (row.sourceHash !== sourceHash(english)) stale += 1;
            }
          }
          items.push({ collection, lang: lang.code, total, translated, stale, missing: total - translated });
        }
      }
      return {
        languages: langs,
        items: items.sort((a, b) => TRANSLATED_COLLECTIONS.indexOf(a.collection) - TRANSLATED_COLLECTIONS.indexOf(b.collection)),
      };
    },

    /** The records of a collection with fields missing or stale in a language (the filters "missing in …", "needs update in …"). */
    async status(collection: TranslatedCollection, lang: string, filter: 'all' | 'missing' | 'stale'): Promise<TranslationStatusList> {
      await requireLanguage(lang);
      const part = translatedCollection(ctx, collection);
      const sources = await part.sources(db);
      const rows = new Map((await repo.ofCollection(db, collection, lang)).map((r) => [`${r.recordId}\u0000${r.field}`, r]));
      const items = [...sources]
        .map(([recordId, source]) => {
          let missing = 0;
          let stale = 0;
          for (const [field, english] of Object.entries(source.fields)) {
            const row = rows.get(`${recordId}\u0000${field}`);
            if (!row) missing += 1;
            else if (row.sourceHash !== sourceHash(english)) stale += 1;
          }
          return { recordId, name: source.name, fields: Object.keys(source.fields).length, missing, stale };
        })
        .filter((i) => filter === 'all' || (filter === 'missing' ? i.missing > 0 : i.stale > 0));
      return { collection, lang, items: items.sort((a, b) => a.name.localeCompare(b.name, 'en')) };
    },
  };
}
