import { TRANSLATED_FIELDS, TRANSLATED_LISTS, acceptedLanguages, chooseLanguage, optionField } from '../../../common/languages.js';
import type { AppContext } from '../../platform/http/context.js';
import { translationsRepository } from '../translations/repository.js';

type Values = Record<string, unknown>;
export type FieldLanguages = Record<string, string | string[]>;

/**
 * A collection's texts in a language, kept per process and read again when the collection's
 * stamp (moved in every translation write's transaction) is not the one they were read at: one
 * primary-key read a request, and never an older text than the database has.
 */
const cached = new WeakMap<AppContext['db'], Map<string, { stamp: string; texts: Map<string, Map<string, string>> }>>();

async function textsOf(ctx: AppContext, collection: string, lang: string): Promise<Map<string, Map<string, string>>> {
  let mine = cached.get(ctx.db);
  if (!mine) { mine = new Map(); cached.set(ctx.db, mine); }
  const key = `${collection}\u0000${lang}`;
  const stamp = await translationsRepository.stampOf(ctx.db, collection, lang);
  const hit = mine.get(key);
  if (hit && hit.stamp === stamp) return hit.texts;
  const texts = await translationsRepository.textsOfCollection(ctx.db, collection, lang);
  mine.set(key, { stamp, texts });
  return texts;
}

async function languagesInUse(ctx: AppContext): Promise<string[]> {
  return (await translationsRepository.languages(ctx.db)).filter((l) => Number(l.enabled) === 1).map((l) => l.code);
}

/** The language a request asked for (?lang=, else Accept-Language) among those in use, or null (English). */
export async function requestedLanguage(ctx: AppContext, lang: string | undefined, acceptLanguage: string | undefined): Promise<string | null> {
  const asked = lang ? [lang] : acceptedLanguages(acceptLanguage);
  if (asked.length === 0) return null;
  return chooseLanguage(asked, await languagesInUse(ctx));
}

/**
 * Answers records in one language, field by field: a translation where there is one (a stale
 * one too: it stays served until updated or confirmed), else the English; and which language
 * each field came in.
 */
export async function localizer(ctx: AppContext, lang: string) {
  const options = new Map<string, string>();
  for (const doc of (await textsOf(ctx, 'maintenance', lang)).values()) for (const [field, text] of doc) options.set(field, text);
  const listValues = (list: string, values: unknown): { values: string[]; langs: string[] } => {
    const english = Array.isArray(values) ? values.map(String) : [];
    const out = english.map((v) => options.get(optionField(list, v)));
    return { values: out.map((t, i) => t ?? english[i]!), langs: out.map((t) => (t === undefined ? 'en' : lang)) };
  };

  return {
    /** Records of a collection: their translated fields, and option values of the lists named (field → list). */
    async records<T extends Values & { id: string }>(collection: 'rice_local_pests' | 'rice_local_diseases' | 'rice_seed_varieties', items: T[], lists: Record<string, string>): Promise<Array<T & { fieldLanguages: FieldLanguages }>> {
      const byRecord = await textsOf(ctx, collection, lang);
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
