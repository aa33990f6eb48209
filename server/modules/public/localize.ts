import { TRANSLATED_FIELDS, TRANSLATED_LISTS, acceptedLanguages, chooseLanguage, optionField } from '../../../common/languages.js';
import type { AppContext } from '../../platform/http/context.js';
import { translationsRepository } from '../translations/repository.js';

type Values = Record<string, unknown>;
export type FieldLanguages = Record<string, string | string[]>;

/** The language a request asked for (?lang=, else Accept-Language) among those in use, or null (English). */
export async function requestedLanguage(ctx: AppContext, lang: string | undefined, acceptLanguage: string | undefined): Promise<string | null> {
  const asked = lang ? [lang] : acceptedLanguages(acceptLanguage);
  if (asked.length === 0) return null;
  const available = (await translationsRepository.languages(ctx.db)).filter((l) => Number(l.enabled) === 1).map((l) => l.code);
  return chooseLanguage(asked, available);
}

/**
 * Answers records in one language, field by field: a translation where there is one (a stale
 * one too: it stays served until updated or confirmed), else the English; and which language
 * each field came in.
 */
export async function localizer(ctx: AppContext, lang: string) {
  const options = new Map<string, string>();
  for (const docId of Object.keys(TRANSLATED_LISTS)) {
    for (const row of await translationsRepository.ofRecords(ctx.db, 'maintenance', [docId], lang)) options.set(row.field, row.text);
  }
  const listValues = (list: string, values: unknown): { values: string[]; langs: string[] } => {
    const english = Array.isArray(values) ? values.map(String) : [];
    const out = english.map((v) => options.get(optionField(list, v)));
    return { values: out.map((t, i) => t ?? english[i]!), langs: out.map((t) => (t === undefined ? 'en' : lang)) };
  };

  return {
    /** Records of a collection: their translated fields, and option values of the lists named (field → list). */
    async records<T extends Values & { id: string }>(collection: 'rice_local_pests' | 'rice_local_diseases' | 'rice_seed_varieties', items: T[], lists: Record<string, string>): Promise<Array<T & { fieldLanguages: FieldLanguages }>> {
      const rows = await translationsRepository.ofRecords(ctx.db, collection, items.map((i) => i.id), lang);
      const byRecord = new Map<string, Map<string, string>>();
      for (const r of rows) {
        const mine = byRecord.get(r.recordId) ?? new Map<string, string>();
        mine.set(r.field, r.text);
        byRecord.set(r.recordId, mine);
      }
      const fields = Object.keys(TRANSLATED_FIELDS[collection]);
      return items.map((item) => {
        const mine = byRecord.get(item.id);
        const out: Values = { ...item };
        const languages: FieldLanguages = {};
        for (const field of fields) {
          const text = mine?.get(field);
          if (text !== undefined && item[field] !== null && item[field] !== '') out[field] = text;
          languages[field] = text !== undefined && item[field] !== null && item[field] !== '' ? lang : 'en';
        }
        for (const [field, list] of Object.entries(lists)) {
          const translated = listValues(list, item[field]);
          if (Array.isArray(item[field])) { out[field] = translated.values; languages[field] = translated.langs; }
          else if (typeof item[field] === 'string') {
            const one = listValues(list, [item[field]]);
            out[field] = one.values[0];
            languages[field] = one.langs[0]!;
          }
        }
        return { ...(out as T), fieldLanguages: languages };
      });
    },

    /** The option lists, each value in the language where translated. */
    options<T extends Record<string, string[]>>(lists: T): T & { fieldLanguages: FieldLanguages } {
      const out: Record<string, string[]> = { ...lists };
      const languages: FieldLanguages = {};
      for (const list of Object.values(TRANSLATED_LISTS).flat()) {
        const translated = listValues(list, lists[list]);
        out[list] = translated.values;
        languages[list] = translated.langs;
      }
      return { ...(out as T), fieldLanguages: languages };
    },
  };
}
