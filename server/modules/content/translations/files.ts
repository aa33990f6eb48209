import fs from 'node:fs';
import type { Transaction } from 'kysely';
import { COLLECTIONS } from '../../../../common/collections.js';
import { unguardCsvText } from '../../../../common/csv.js';
import {
  LANGUAGE_LIMITS,
  LANGUAGE_TEXTS,
  TRANSLATED_FIELDS,
  optionFieldLabel,
  type TranslatedCollection,
} from '../../../../common/languages.js';
import { MAINTENANCE } from '../../../../common/maintenance.js';
import type { TranslationImportPreview, TranslationImportReport } from '../../../../common/schemas/languages.js';
import type { Database } from '../../../db/types.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { readerOf } from '../../../platform/parsing/file-readers.js';
import { readUploadedTable } from '../../../platform/spreadsheets/upload.js';
import { utf16ByMark } from '../../../platform/support/byte-order-mark.js';
import { turns } from '../../../platform/support/turns.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand, type Command } from '../../../platform/writes/command.js';
import { translatedCollections, type SourceRecord, type TranslatedParts } from './adapters.js';
import { translationsRepository as repo } from './repository.js';
import { sourceHash, translationProblem, writeTranslations, type RecordTranslation } from './writes.js';
import type { xliffTasks } from './read-worker.js';
import { exportedHash, languageMatcher, parseUnitId, type FileUnit, type ReadUnit } from './xliff.js';

export const FILE_COLUMNS = {
  unit: 'Unit',
  language: 'Language',
  collection: 'Collection',
  record: 'Record',
  field: 'Field',
  source: 'English',
  target: 'Translation',
  status: 'Status',
  sourceThen: 'English then',
  exported: 'Exported',
} as const;
const STATUS = { missing: LANGUAGE_TEXTS.missing, stale: LANGUAGE_TEXTS.stale, translated: LANGUAGE_TEXTS.translated } as const;

export const collectionLabel = (c: TranslatedCollection) => (c === 'maintenance' ? MAINTENANCE.title : COLLECTIONS[c].label);
const fieldLabel = (c: TranslatedCollection, field: string) =>
  c === 'maintenance' ? optionFieldLabel(field) : (TRANSLATED_FIELDS[c][field] ?? field);

/** Every farmer-facing field with English, in one language: the translators' file. */
export async function languageUnits(ctx: AppContext, lang: string): Promise<FileUnit[]> {
  const units: FileUnit[] = [];
  for (const [collection, part] of translatedCollections(ctx)) {
    const sources = await part.sources(ctx.db);
    const rows = new Map((await repo.ofCollection(ctx.db, collection, lang)).map((r) => [`${r.recordId}\u0000${r.field}`, r]));
    for (const [recordId, source] of sources) {
      for (const [field, english] of Object.entries(source.fields)) {
        const row = rows.get(`${recordId}\u0000${field}`);
        units.push({
          collection,
          recordId,
          field,
          context: `${collectionLabel(collection)}: ${source.name}: ${fieldLabel(collection, field)}`,
          source: english,
          target: row?.text ?? '',
          stale: row && row.sourceHash !== sourceHash(english) ? { sourceThen: row.sourceText } : null,
        });
      }
    }
  }
  return units;
}

export const unitStatus = (u: FileUnit) => (!u.target ? STATUS.missing : u.stale ? STATUS.stale : STATUS.translated);

const xliffReader = readerOf<typeof xliffTasks>(new URL('./read-worker.js', import.meta.url));

/**
 * A file's units, from XLIFF 2.0 or a CSV/XLSX with the export's columns (cells unguarded as the
 * export guarded them). Both are read by a file reader's thread (platform/parsing).
 */
async function readUnits(ctx: AppContext, file: string, lang: string): Promise<ReadUnit[]> {
  const stat = await fs.promises.stat(file);
  if (stat.size > LANGUAGE_LIMITS.maxImportBytes)
    fail('PAYLOAD_TOO_LARGE', LANGUAGE_TEXTS.import.tooLarge, { file: LANGUAGE_TEXTS.import.tooLarge });
  const head = Buffer.alloc(512);
  const handle = await fs.promises.open(file, 'r');
  const { bytesRead } = await handle.read(head, 0, 512, 0).finally(() => handle.close());
  // An XLIFF saved as UTF-16 still goes to the XLIFF reader, which says what to do about it.
  const bytes = head.subarray(0, bytesRead);
  const start = new TextDecoder(utf16ByMark(bytes) ?? 'utf-8')
    .decode(bytes)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (start.startsWith('<')) return xliffReader.run(ctx.files, 'xliff', [file, lang], { field: 'file' });
  const matchesLang = languageMatcher(lang);
  const table = await readUploadedTable(ctx, file);
  const col = (name: string) => table.header.findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());
  const C = FILE_COLUMNS;
  const [unit, source, target, language, was] = [col(C.unit), col(C.source), col(C.target), col(C.language), col(C.exported)];
  if (unit < 0 || target < 0) fail('VALIDATION_FAILED', LANGUAGE_TEXTS.import.noUnits, { file: LANGUAGE_TEXTS.import.noUnits });
  const units: ReadUnit[] = [];
  const text = (v: unknown) => (v === null || v === undefined ? '' : unguardCsvText(String(v)));
  for await (const row of table.rows) {
    units.push({
      id: text(row.cells[unit]).trim(),
      source: source < 0 ? '' : text(row.cells[source]),
      target: text(row.cells[target]),
      was: was < 0 ? null : text(row.cells[was]).trim() || null,
      ...(language < 0 ? {} : { lang: text(row.cells[language]).trim() }),
      problem: null,
    });
  }
  // A file of another language is refused whole, as an XLIFF's trgLang is.
  const other = units.find((u) => u.lang !== undefined && u.lang !== '' && !matchesLang(u.lang));
  if (other)
    fail('VALIDATION_FAILED', LANGUAGE_TEXTS.import.wrongTarget(other.lang!, lang), {
      file: LANGUAGE_TEXTS.import.wrongTarget(other.lang!, lang),
    });
  return units;
}

/** One unit of a file that changes a translation, as the import writes it and a reviewer reads it. */
export interface PlannedUnit {
  /** The unit's place in the file (1 first). */
  row: number;
  recordId: string;
  name: string;
  field: string;
  label: string;
  /** The English the translation was made from: the console's, or an older one the file carried. */
  madeFrom: string;
  /** The translation in the console when the file was read (null: none). */
  before: string | null;
  /** The new translation ('' removes it). */
  text: string;
}

export interface Planned {
  preview: Omit<TranslationImportPreview, 'forReview'>;
  units: Map<TranslatedCollection, PlannedUnit[]>;
}

/** Units as the translation writes take them: one change per record, records in id order (two imports at once lock them in the same order). */
export function changesOf(lang: string, units: readonly PlannedUnit[]): RecordTranslation[] {
  const byRecord = new Map<string, RecordTranslation>();
  for (const u of units) {
    const change = byRecord.get(u.recordId) ?? { recordId: u.recordId, lang, version: null, texts: {}, confirm: [], sources: {} };
    change.texts[u.field] = u.text;
    change.sources![u.field] = u.madeFrom;
    byRecord.set(u.recordId, change);
  }
  return [...byRecord.values()].sort((a, b) => (a.recordId < b.recordId ? -1 : 1));
}

/**
 * What an import would do: each unit checked (a known record and field, the file's language,
 * the length, the account's right to option values), and the changes grouped by record. A unit
 * the translator left as exported changes nothing, whatever happened in the console since; one
 * they changed while the console changed it too is an error, never a silent overwrite. A blank
 * translation removes one only when the file had one there.
 */
export async function planImport(ctx: AppContext, file: string, fileName: string, lang: string, canOptions: boolean): Promise<Planned> {
  const units = await readUnits(ctx, file, lang);
  if (units.length === 0) fail('VALIDATION_FAILED', LANGUAGE_TEXTS.import.noUnits, { file: LANGUAGE_TEXTS.import.noUnits });
  if (units.length > LANGUAGE_LIMITS.maxImportUnits)
    fail('VALIDATION_FAILED', LANGUAGE_TEXTS.import.tooManyUnits, { file: LANGUAGE_TEXTS.import.tooManyUnits });
  const parts = translatedCollections(ctx);
  const sources = new Map<string, Map<string, SourceRecord>>();
  const existing = new Map<string, { text: string; sourceHash: string }>();
  for (const [collection, part] of parts) {
    sources.set(collection, await part.sources(ctx.db));
    for (const r of await repo.ofCollection(ctx.db, collection, lang)) existing.set(`${collection}/${r.recordId}/${r.field}`, r);
  }
  const rows: TranslationImportPreview['rows'] = [];
  const planned = new Map<TranslatedCollection, PlannedUnit[]>();
  const counts = { changed: 0, unchanged: 0, error: 0 };
  const turn = turns();
  for (const [i, u] of units.entries()) {
    await turn();
    planUnit(u, i);
  }
  return { preview: { fileName, lang, units: units.length, counts, rows }, units: planned };

  function planUnit(u: ReadUnit, i: number): void {
    const key = parseUnitId(u.id);
    const source = key ? sources.get(key.collection)?.get(key.recordId) : undefined;
    const english = key && source ? source.fields[key.field] : undefined;
    const error = (message: string, record: string | null = null, field: string | null = null) => {
      counts.error += 1;
      rows.push({ index: i + 1, unit: u.id, record, field, status: 'error', error: message });
    };
    if (!key || !source || english === undefined) return error(LANGUAGE_TEXTS.import.unknownUnit);
    const collection = key.collection as TranslatedCollection;
    const base = { index: i + 1, unit: u.id, record: source.name, field: fieldLabel(collection, key.field) };
    const text = (u.target ?? '').trim();
    const old = existing.get(`${key.collection}/${key.recordId}/${key.field}`);
    const untouched = u.was !== null ? exportedHash(text) === u.was : text === '' || (old !== undefined && old.text === text);
    if (untouched) {
      counts.unchanged += 1;
      rows.push({ ...base, status: 'unchanged', error: null });
      return;
    }
    if (u.problem) return error(u.problem, base.record, base.field);
    if (collection === 'maintenance' && !canOptions) return error(LANGUAGE_TEXTS.import.options, base.record, base.field);
    if (u.was !== null && exportedHash(old?.text ?? '') !== u.was)
      return error(LANGUAGE_TEXTS.import.changedSince, base.record, base.field);
    const problem = text === '' ? null : translationProblem(collection, key.field, source, text);
    if (problem) return error(problem, base.record, base.field);
    if (text === '' && !old) {
      counts.unchanged += 1;
      rows.push({ ...base, status: 'unchanged', error: null });
      return;
    }
    counts.changed += 1;
    rows.push({
      ...base,
      status: text === '' ? 'removed' : old ? 'updated' : 'new',
      error: u.source && u.source !== english ? LANGUAGE_TEXTS.import.sourceChanged : null,
    });
    const list = planned.get(collection) ?? [];
    // A translation made from older English keeps that English: it is marked until it is updated again.
    list.push({
      row: i + 1,
      recordId: key.recordId,
      name: source.name,
      field: key.field,
      label: base.field,
      madeFrom: u.source || english,
      before: old?.text ?? null,
      text,
    });
    planned.set(collection, list);
  }
}

/** All or nothing unless the importer chose to leave out the units with errors. */
export function refuseErrors(planned: Planned, onErrors: 'stop' | 'skip'): void {
  const n = planned.preview.counts.error;
  if (n > 0 && onErrors === 'stop')
    fail('VALIDATION_FAILED', LANGUAGE_TEXTS.import.hasErrors(n), { file: LANGUAGE_TEXTS.import.hasErrors(n) });
}

/**
 * The import's writes to these collections, in the caller's command: a version and an audit
 * entry per record, and one IMPORT entry. Returns how many translations changed.
 */
export async function writeImport(
  trx: Transaction<Database>,
  cmd: Command,
  parts: TranslatedParts,
  planned: Planned,
  collections: readonly TranslatedCollection[],
  actor: Actor,
  note = '',
): Promise<number> {
  const { preview } = planned;
  let n = 0;
  for (const collection of collections) {
    n += await writeTranslations(
      trx,
      cmd,
      parts,
      parts.get(collection)!,
      changesOf(preview.lang, planned.units.get(collection) ?? []),
      actor,
    );
  }
  if (n > 0) {
    await cmd.audit({
      action: 'IMPORT',
      collection: 'translations',
      documentId: preview.lang,
      documentName: preview.fileName,
      description:
        `Imported ${preview.lang} translations from ${preview.fileName}${note}: ${n} changed, ` +
        `${preview.counts.unchanged} unchanged, ${preview.counts.error} left out`,
      details: { lang: preview.lang, ...preview.counts },
    });
  }
  return n;
}

/** The import's report: what was written now, and the pending changes the rest became. */
export function importReport(planned: Planned, changed: number, forReview: TranslationImportReport['forReview']): TranslationImportReport {
  const { preview } = planned;
  return {
    fileName: preview.fileName,
    lang: preview.lang,
    changed,
    unchanged: preview.counts.unchanged,
    skipped: preview.counts.error,
    forReview,
  };
}

/** The import when no collection it touches needs review: every change in one transaction. */
export async function commitImport(ctx: AppContext, planned: Planned, actor: Actor): Promise<TranslationImportReport> {
  const changed = await runCommand(ctx, actor, (trx, cmd) =>
    writeImport(trx, cmd, translatedCollections(ctx), planned, [...planned.units.keys()], actor),
  );
  return importReport(planned, changed, []);
}
