import type { CatalogCollection } from '../../../../common/catalog.js';
import { LANGUAGE_LIMITS, TRANSLATED_FIELDS, TRANSLATED_LISTS, acceptedLanguages, chooseLanguage, parseOptionField } from '../../../../common/languages.js';
import type { AppContext } from '../../../platform/http/context.js';
import { derivedFrom, keptValues } from '../../../platform/cache/kept.js';
import { readStamps, stampOf, type Stamps } from '../../../platform/cache/stamps.js';
import { LANGUAGES_STAMP, translationStamp, translationsRecords } from '../../content/translations/index.js';

type Values = Record<string, unknown>;
export type FieldLanguages = Record<string, string | string[]>;
type Texts = Map<string, Map<string, string>>;
type OptionList = (typeof TRANSLATED_LISTS)[keyof typeof TRANSLATED_LISTS][number];

/**
 * What the public API reads in a language is kept (platform/cache/kept.ts): the languages in use
 * and each collection's texts per language, each at the stamp of its translations. Every
 * translation or language write moves its stamp in the write's transaction, so one read of the
 * (small) stamps table a request tells what is still current: never an older text than the database has.
 */
const keptLanguages = (ctx: AppContext) => keptValues<string[]>(ctx.db, 'public/languages', 1);
const TEXTS_KEPT = Object.keys(TRANSLATED_FIELDS).length * LANGUAGE_LIMITS.maxLanguages;
const keptTexts = (ctx: AppContext) => keptValues<Texts>(ctx.db, 'public/texts', TEXTS_KEPT);

/**
 * Answers records in one language, field by field: a translation where there is one (a stale
 * one too: it stays served until updated or confirmed), else the English. `fieldLanguages` names
 * only the fields that came in English (not translated yet): any field it leaves out came in the
 * language asked, which keeps the answer small on the farmers' slow links. A list of option
 * values is named, one language per value, when any of its values is English.
 */
export interface Localizer {
  readonly lang: string;
  /** Records of a collection, changed in place: their translated fields, and option values of the lists named (field → list). */
  records<T extends Values & { id: string }>(collection: CatalogCollection | 'rice_seed_varieties', items: T[], lists: Record<string, string>): Promise<Array<T & { fieldLanguages: FieldLanguages }>>;
  /** The option lists, each value in the language where translated. */
  options<T extends Record<string, string[]>>(lists: T): Promise<T & { fieldLanguages: Partial<Record<OptionList, string[]>> }>;
}

function localizer(ctx: AppContext, stamps: Stamps, lang: string): Localizer {
  const kept = keptTexts(ctx);
  function textsOf(collection: string): Promise<Texts> {
    const name = translationStamp(collection, lang);
    return kept.get(name, stampOf(stamps, name), () => translationsRecords.textsOfCollection(ctx.db, collection, lang));
  }
  /** Each option list's translated values (list → English → text), built once per maintenance stamp. */
  async function optionValues() {
    const texts = await textsOf('maintenance');
    const byList = derivedFrom(texts, 'option values', () => {
      const byList = new Map<string, Map<string, string>>();
      for (const doc of texts.values()) {
        for (const [field, text] of doc) {
          const key = parseOptionField(field);
          if (!key) continue;
          let values = byList.get(key.list);
          if (!values) { values = new Map(); byList.set(key.list, values); }
          values.set(key.value, text);
        }
      }
      return byList;
    });
    const none = new Map<string, string>();
    return (list: string, english: readonly unknown[]): { values: string[]; langs: string[] | null } => {
      const translated = byList.get(list) ?? none;
      const values = new Array<string>(english.length);
      let langs: string[] | null = null;
      for (let i = 0; i < english.length; i += 1) {
        const v = String(english[i]);
        const t = translated.get(v);
        values[i] = t ?? v;
        if (t === undefined) (langs ??= new Array<string>(english.length).fill(lang))[i] = 'en';
      }
      return { values, langs };
    };
  }

  return {
    lang,
    async records(collection, items, lists) {
      const byRecord = await textsOf(collection);
      const listValues = await optionValues();
      const fields = Object.keys(TRANSLATED_FIELDS[collection]);
      const listFields = Object.entries(lists);
      // The items are this request's own (made by the presenter for it): set in place, not copied.
      return items.map((item) => {
        const mine = byRecord.get(item.id);
        const out: Values = item;
        const languages: FieldLanguages = {};
        for (const field of fields) {
          const english = item[field];
          if (english === null || english === undefined || english === '') continue;
          const text = mine?.get(field);
          if (text === undefined) languages[field] = 'en';
          else out[field] = text;
        }
        for (const [field, list] of listFields) {
          const value = item[field];
          if (Array.isArray(value)) {
            const t = listValues(list, value);
            out[field] = t.values;
            if (t.langs) languages[field] = t.langs;
          } else if (typeof value === 'string') {
            const t = listValues(list, [value]);
            out[field] = t.values[0];
            if (t.langs) languages[field] = 'en';
          }
        }
        out.fieldLanguages = languages;
        return out as (typeof items)[number] & { fieldLanguages: FieldLanguages };
      });
    },

    async options(lists) {
      const listValues = await optionValues();
      const out: Record<string, string[]> = { ...lists };
      const languages: Partial<Record<OptionList, string[]>> = {};
      for (const list of Object.values(TRANSLATED_LISTS).flat()) {
        const english = lists[list];
        const t = listValues(list, Array.isArray(english) ? english : []);
        out[list] = t.values;
        if (t.langs) languages[list] = t.langs;
      }
      return { ...(out as typeof lists), fieldLanguages: languages };
    },
  };
}

/**
 * The language a request asked for (?lang=, else Accept-Language) among those in use, with what
 * answers in it; null for English. No database read when nothing was asked.
 */
export async function requestedLanguage(ctx: AppContext, lang: string | undefined, acceptLanguage: string | undefined): Promise<Localizer | null> {
  const asked = lang ? [lang] : acceptedLanguages(acceptLanguage);
  if (asked.length === 0) return null;
  const stamps = await readStamps(ctx.db);
  const inUse = await keptLanguages(ctx).get('', stampOf(stamps, translationStamp(LANGUAGES_STAMP, '')), async () =>
    (await translationsRecords.languages(ctx.db)).filter((l) => Number(l.enabled) === 1).map((l) => l.code));
  const code = chooseLanguage(asked, inUse);
  return code ? localizer(ctx, stamps, code) : null;
}
