import { COLLECTIONS } from './collections.js';
import { LANGUAGE_TEXTS, type TranslatedCollection } from './languages.js';

/**
 * The browser's texts of the farmers' languages (the editor, the Translations screen, the
 * translators' files, the dashboard's completeness and File Maintenance's Languages). The
 * texts the server shares (LANGUAGE_TEXTS: stale, confirm, filters, errors…) are in languages.ts.
 */
const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export const TRANSLATE_TEXTS = {
  tab: 'Translate',
  button: 'Translate',
  language: 'Language',
  noLanguages: 'No language is in use. A super admin can add one in File Maintenance, Languages.',
  noFields: 'This record has no English text to translate yet.',
  fieldIn: (label: string, language: string) => `${label} in ${language}`,
  save: 'Save translations',
  saving: 'Saving…',
  saved: (language: string) => `Translations into ${language} saved.`,
  confirmed: (label: string) => `${label}: marked as still correct.`,
  unsaved: (n: number) => `${count(n, 'unsaved change', 'unsaved changes')}`,
  conflict:
    'Someone saved this record since you opened it. The newest version is shown and what you typed is kept: check it and save again.',
  englishChange: 'What changed in the English:',
  removed: 'removed',
  added: 'added',
  lastSaved: (when: string, who: string | null) => `Saved ${when}${who ? ` by ${who}` : ''}`,
  emptyRemoves: 'Saving an empty box removes this translation.',
  readOnly: 'You can read these translations; changing them needs the permission to edit this record.',
  saveFirst: 'Save or cancel your changes first, then translate.',
  progress: (translated: number, total: number, stale: number) =>
    `${translated} of ${total} translated${stale > 0 ? `, ${stale} ${stale === 1 ? 'needs' : 'need'} update` : ''}`,

  screen: {
    title: LANGUAGE_TEXTS.completeness,
    subtitle: 'Find what is missing or needs an update in each language, and exchange files with translators.',
    collection: 'Records',
    optionValues: 'Option values',
    record: 'Record',
    missing: 'Missing',
    stale: 'Needs update',
    fields: 'Fields',
    actions: 'Actions',
    translate: (name: string) => `Translate ${name}`,
    empty: {
      all: 'There is no English text to translate here yet.',
      missing: (language: string) => `Nothing is missing in ${language}.`,
      stale: (language: string) => `Nothing needs an update in ${language}.`,
    },
    loading: 'Loading translations…',
    filters: 'Show',
  },

  completeness: {
    title: LANGUAGE_TEXTS.completeness,
    /** The same bars' heading on the Translations screen, whose own title is Translations. */
    byLanguage: 'By language',
    subtitle: 'Farmer-facing fields per language: translated, needing an update after the English changed, and missing.',
    upToDate: 'Translated',
    stale: 'Needs update',
    missing: 'Missing',
    open: 'Open Translations',
    none: 'No language is in use.',
    nothing: 'No English text yet',
    summary: (current: number, stale: number, missing: number) =>
      `${current.toLocaleString('en-US')} translated, ${stale.toLocaleString('en-US')} need update, ${missing.toLocaleString('en-US')} missing`,
  },

  files: {
    title: "Translators' files",
    intro: 'Export a language for a translator (XLIFF 2.0 for translation tools, or a spreadsheet), then import the file they send back.',
    exportLabel: (language: string) => `Export ${language}`,
    formats: { xliff: 'XLIFF 2.0 (.xlf)', csv: 'CSV (.csv)', xlsx: 'Excel (.xlsx)' },
    import: 'Import',
    importLabel: (language: string) => `Import ${language} translations`,
    importIntro:
      'Choose the XLIFF, CSV or XLSX file the translator sent back. Every unit is checked first; nothing is saved until you choose Import.',
    accept: '.xlf,.xliff,.xml,.csv,.xlsx,application/xliff+xml,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    counts: { changed: 'Changes', unchanged: 'Unchanged', error: 'Errors' },
    statuses: { new: 'New', updated: 'Updated', removed: 'Removed', unchanged: 'Unchanged', error: 'Error' },
    columns: { unit: 'Unit', record: 'Record', field: 'Field', status: 'Result', details: 'Details' },
    stopOnErrors: 'Import nothing while a unit has an error',
    blocked: 'Fix the units with errors in the file and choose it again, or import the others only.',
    skipErrors: (n: number) => `Import the others and leave out the ${count(n, 'unit', 'units')} with errors`,
    importButton: (n: number) => `Import ${count(n, 'change', 'changes')}`,
    nothing: 'No unit of this file changes a translation.',
    forReview: (labels: string) =>
      `Changes to ${labels} need review: they will wait as pending changes until another account approves ` +
      `them. The farmer app keeps the published translations until then.`,
    sentForReview: (label: string, n: number) => `${label}: ${count(n, 'translation', 'translations')} sent for review.`,
    openReview: 'Open the change',
    done: (changed: number) => `Imported: ${count(changed, 'translation changed', 'translations changed')}.`,
    doneDetail: (unchanged: number, skipped: number) =>
      `${unchanged.toLocaleString('en-US')} unchanged, ${skipped.toLocaleString('en-US')} left out with errors.`,
    shown: (shown: number, total: number) => `Showing ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} units`,
    showMore: 'Show more',
    all: 'All',
  },

  languages: {
    hint: "The farmers' languages, and the option values in each",
    suggested: 'Suggested:',
    suggest: (name: string, code: string) => `Use ${name} (${code})`,
    adding: 'Adding…',
    added: (name: string) => `${name} added. It is not in use yet: turn it on when its translations are ready.`,
    /** Beside a language the farmer app does not offer yet, where its translations are worked on. */
    notInUse: (name: string) => `${name} (not in use)`,
    inUse: (name: string, on: boolean) => `${name} is ${on ? 'now in use' : 'no longer in use; its translations are kept'}.`,
    empty: 'No language yet: add the first one below.',
    source: 'English is the source of every text and is not listed here.',
    optionValues: "Option values in the farmers' languages",
    optionValuesHint: 'The values of these lists reach the farmer app: translate them one by one.',
    translateList: (title: string) => `Translate ${title}`,
    close: 'Close',
    rename: (name: string) => `Rename ${name}`,
    saveName: 'Save the name',
    cancelRename: 'Keep the name',
    renamed: (from: string, to: string) => `${from} is now called ${to}.`,
  },
} as const;

/** A translated collection's name on the console's screens. */
export function translatedCollectionLabel(collection: TranslatedCollection): string {
  return collection === 'maintenance' ? TRANSLATE_TEXTS.screen.optionValues : COLLECTIONS[collection].label;
}
