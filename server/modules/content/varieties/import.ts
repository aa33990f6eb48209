import type {
  ImportColumn,
  ImportCounts,
  ImportMapping,
  ImportOnErrors,
  ImportPreview,
  ImportReport,
  ImportRow,
} from '../../../../common/schemas/spreadsheets.js';
import { IMPORT_TEXTS } from '../../../../common/spreadsheets.js';
import { VARIETY_TOPIC } from '../../../../common/varieties.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import { turns } from '../../../platform/support/turns.js';
import { tidyVarietySearch } from '../../../db/variety-search.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import type { Table } from '../../../platform/spreadsheets/table-reader.js';
import type { UploadedSheet } from '../../../platform/spreadsheets/upload.js';
import { importMappingSchema } from '../../../../common/schemas/spreadsheets.js';
import { getVarietyEnums } from '../maintenance/index.js';
import { columns as storedColumns, diff, fieldsOf, normalize, type Fields } from './fields.js';
import { missingFields, optionProblems, parseRow, resolveColumns, type ParsedRow } from './import-rows.js';
import { presentVariety } from './presenter.js';
import { varietiesRepository, type VarietyRow } from './repository.js';
import { recordVersions } from '../../publishing/versions/index.js';

const COLLECTION = 'rice_seed_varieties' as const;
const F = IMPORT_TEXTS.file;
type Db = AppContext['db'];

interface Decided extends ImportRow {
  fields: Fields | null;
  existing: VarietyRow | null;
}

/** A sheet as read: kept as JSON by a pending import (review), then committed from it. */
export interface Read {
  columns: ImportColumn[];
  rows: ParsedRow[];
}

/** Every row read and checked against the form's schema; nothing touches the database yet. */
async function readRows(db: Db, table: Table, mapping: ImportMapping): Promise<Read> {
  if (Object.keys(mapping).some((index) => Number(index) >= table.header.length))
    fail('VALIDATION_FAILED', F.badMapping, { mapping: F.badMapping });
  const columns = resolveColumns(table.header, mapping);
  if (columns.every((c) => c.field === null)) fail('VALIDATION_FAILED', F.noFields, { file: F.noFields });
  const enums = await getVarietyEnums(db);
  const rows: ParsedRow[] = [];
  const turn = turns();
  for await (const { row, cells } of table.rows) {
    rows.push(parseRow(row, cells, columns, enums));
    await turn();
  }
  if (rows.length === 0) fail('VALIDATION_FAILED', F.empty, { file: F.empty });
  return { columns, rows };
}

/** The import's column choices (multipart field "mapping", JSON); none given: matched by header. */
export function mappingOf(upload: UploadedSheet): ImportMapping {
  const raw = upload.fields.mapping;
  if (raw === undefined || raw === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = null;
  }
  const parsed = importMappingSchema.safeParse(value);
  if (!parsed.success) fail('VALIDATION_FAILED', F.badMapping, { mapping: F.badMapping });
  return parsed.data;
}

const shownValue = (v: unknown): string =>
  v === null || v === undefined ? '' : Array.isArray(v) ? v.join(', ') : typeof v === 'boolean' ? (v ? 'Yes' : 'No') : String(v);

const nameKey = (name: string) => name.trim().toLowerCase();

/**
 * Each row's fate against the live records: new, an update of the one live variety of its name
 * (only the fields that differ), unchanged, or an error (the form's messages, values not in the
 * option lists, a name twice in the file or shared by several live varieties).
 */
async function decide(db: Db, read: Read): Promise<Decided[]> {
  const enums = await getVarietyEnums(db);
  const inFile = new Map<string, number[]>();
  for (const r of read.rows) {
    if (r.name === '') continue;
    const rows = inFile.get(nameKey(r.name));
    if (rows) rows.push(r.row);
    else inFile.set(nameKey(r.name), [r.row]);
  }
  const live = new Map<string, string[]>();
  for (const { id, varietyName } of await varietiesRepository.liveNameIndex(db)) {
    if (!inFile.has(nameKey(varietyName))) continue;
    const ids = live.get(nameKey(varietyName));
    if (ids) ids.push(id);
    else live.set(nameKey(varietyName), [id]);
  }
  const single = [...live.values()].filter((ids) => ids.length === 1).map(([id]) => id!);
  const existingById = new Map((await varietiesRepository.findLiveMany(db, single)).map((r) => [r.id, r]));
  const recommendedHeld = read.columns.some((c) => c.field === 'recommendedInTarlac');

  // One message per name: a name on 20,000 rows is one text, not 20,000 of them.
  const duplicateMessages = new Map<string, string>();
  const duplicateOf = (key: string, rows: number[]) => {
    let m = duplicateMessages.get(key);
    if (m === undefined) duplicateMessages.set(key, (m = IMPORT_TEXTS.row.duplicateInFile(rows)));
    return m;
  };
  const decideRow = (r: ParsedRow): Decided => {
    const errors = [...r.errors];
    const key = nameKey(r.name);
    const rowsOfName = inFile.get(key) ?? [];
    if (rowsOfName.length > 1)
      errors.push({
        column: read.columns.find((c) => c.field === 'varietyName')!.header,
        value: r.name,
        message: duplicateOf(key, rowsOfName),
      });
    const ids = live.get(key) ?? [];
    if (ids.length > 1)
      errors.push({
        column: read.columns.find((c) => c.field === 'varietyName')!.header,
        value: r.name,
        message: IMPORT_TEXTS.row.ambiguous(ids.length),
      });
    const existing = ids.length === 1 ? (existingById.get(ids[0]!) ?? null) : null;
    if (r.input && errors.length === 0) errors.push(...optionProblems(r.input, read.columns, enums, existing?.yearRelease ?? null));
    const base = { row: r.row, name: r.name, changed: [], existing };
    if (!r.input || errors.length > 0) return { ...base, status: 'error', errors, fields: null };
    const fields = normalize(r.input);
    if (!existing) return { ...base, status: 'new', errors: [], fields };
    // A file without the column keeps the record's answer rather than setting it to No.
    if (!recommendedHeld) fields.recommendedInTarlac = Boolean(existing.recommendedInTarlac);
    const changed = Object.keys(diff(fieldsOf(presentVariety(existing)), fields).after) as ImportRow['changed'];
    return { ...base, status: changed.length === 0 ? 'unchanged' : 'update', changed, errors: [], fields };
  };
  const turn = turns();
  const decided: Decided[] = [];
  for (const r of read.rows) {
    decided.push(decideRow(r));
    await turn();
  }
  return decided;
}

function countOf(rows: readonly Decided[]): ImportCounts {
  const counts: ImportCounts = { new: 0, update: 0, unchanged: 0, error: 0 };
  for (const r of rows) counts[r.status] += 1;
  return counts;
}

const view = ({ row, name, status, changed, errors }: Decided): ImportRow => ({ row, name, status, changed, errors });

export function createVarietyImport(ctx: AppContext) {
  const { db } = ctx;
  return {
    /** The dry run: every row's result, and nothing written. */
    async preview(table: Table, fileName: string, mapping: ImportMapping): Promise<ImportPreview> {
      const read = await readRows(db, table, mapping);
      const rows = await decide(db, read);
      return {
        fileName,
        format: table.format,
        columns: read.columns,
        missing: missingFields(read.columns),
        counts: countOf(rows),
        rows: rows.map(view),
      };
    },

    /**
     * The import: the rows are decided again inside one transaction and every new and changed
     * row is written in it with its audit entry, plus one entry for the whole import; with errors
     * and onErrors 'stop', nothing is written.
     */
    read: (table: Table, mapping: ImportMapping): Promise<Read> => readRows(db, table, mapping),

    /**
     * What the import would do now (a pending import's review): each row's result with the
     * values it writes, the counts, and the varieties it updates at their edit versions.
     */
    async decided(read: Read) {
      const rows = await decide(db, read);
      const shown = (r: Decided) =>
        r.fields
          ? Object.fromEntries(
              (r.status === 'new' ? Object.keys(r.fields) : r.changed)
                .map((k) => [k, shownValue(r.fields![k as keyof Fields])])
                .filter(([, v]) => v !== ''),
            )
          : {};
      return {
        counts: countOf(rows),
        rows: rows.map((r) => ({ ...view(r), changed: [...r.changed], values: shown(r) })),
        targets: rows.filter((r) => r.status === 'update').map((r) => ({ id: r.existing!.id, version: Number(r.existing!.version) })),
      };
    },

    async commit(table: Table, fileName: string, mapping: ImportMapping, onErrors: ImportOnErrors, actor: Actor): Promise<ImportReport> {
      return this.commitRead(await readRows(db, table, mapping), fileName, onErrors, actor);
    },

    /** `expected`: the varieties a reviewed import updates, at the versions its reviewer saw (409 when any moved, or another would be updated). */
    async commitRead(
      read: Read,
      fileName: string,
      onErrors: ImportOnErrors,
      actor: Actor,
      expected?: ReadonlyArray<{ id: string; version: number }>,
    ): Promise<ImportReport> {
      const report = await runCommand(ctx, actor, async (trx, cmd) => {
        await varietiesRepository.lockImports(trx);
        const rows = await decide(trx, read);
        if (expected) {
          const seen = new Map(expected.map((t) => [t.id, t.version]));
          const moved = rows.filter((r) => r.status === 'update').some((r) => seen.get(r.existing!.id) !== Number(r.existing!.version));
          if (moved) fail('VERSION_CONFLICT');
        }
        const counts = countOf(rows);
        if (counts.error > 0 && onErrors === 'stop')
          fail('VALIDATION_FAILED', F.hasErrors(counts.error), { file: F.hasErrors(counts.error) });
        const now = nowIso();
        const created = rows.filter((r) => r.status === 'new').map((r) => ({ id: newId(), fields: r.fields! }));
        // They share one time, so the list orders them by id: written in that order, they keep the search index in order too.
        await varietiesRepository.insertMany(
          trx,
          [...created]
            .sort((a, b) => (a.id < b.id ? -1 : 1))
            .map(({ id, fields }) => ({
              id,
              ...storedColumns(fields),
              isDeleted: 0,
              createdAt: now,
              updatedAt: null,
              deletedAt: null,
              deletedBy: null,
            })),
        );
        const updates = rows.filter((r) => r.status === 'update');
        for (const r of updates) {
          const existing = r.existing!;
          const changed = await varietiesRepository.updateVersioned(
            trx,
            existing.id,
            Number(existing.version),
            { ...storedColumns(r.fields!), updatedAt: now },
            r.fields!,
          );
          if (changed === 0) fail('VERSION_CONFLICT');
        }
        const auditIds = await cmd.auditMany([
          ...created.map(({ id, fields }) => ({
            action: 'CREATE' as const,
            collection: COLLECTION,
            documentId: id,
            documentName: fields.varietyName,
            description: `Created rice variety ${fields.varietyName}`,
            changes: { before: null, after: fields },
            details: { import: fileName },
          })),
          ...updates.map((r) => ({
            action: 'UPDATE' as const,
            collection: COLLECTION,
            documentId: r.existing!.id,
            documentName: r.fields!.varietyName,
            description: `Updated rice variety ${r.fields!.varietyName}`,
            changes: diff(fieldsOf(presentVariety(r.existing!)), r.fields!),
            details: { import: fileName },
          })),
        ]);
        await recordVersions(trx, [
          ...created.map(({ id, fields }, i) => ({
            collection: COLLECTION,
            documentId: id,
            recordVersion: 1,
            auditId: auditIds[i] ?? null,
            actor,
            snapshot: { fields },
            kind: 'create' as const,
          })),
          ...updates.map((r, i) => ({
            collection: COLLECTION,
            documentId: r.existing!.id,
            recordVersion: Number(r.existing!.version) + 1,
            auditId: auditIds[created.length + i] ?? null,
            actor,
            snapshot: { fields: r.fields! },
            kind: 'edit' as const,
          })),
        ]);
        const report = { fileName, created: created.length, updated: updates.length, unchanged: counts.unchanged, skipped: counts.error };
        if (created.length + updates.length > 0) {
          await cmd.audit({
            action: 'IMPORT',
            collection: COLLECTION,
            documentId: null,
            documentName: fileName,
            description:
              `Imported rice varieties from ${fileName}: ${report.created} added, ${report.updated} updated, ` +
              `${report.unchanged} unchanged, ${report.skipped} left out`,
            details: report,
          });
          // One event for the whole import: every instance drops its cached searches, every tab refreshes.
          cmd.publish({ topic: VARIETY_TOPIC, op: 'import' });
        }
        return report;
      });
      if (report.created + report.updated > 0) await tidyVarietySearch(db);
      return report;
    },
  };
}
