import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import { CONTROL_TEXTS, hasControlCharacters, visibleControls } from '../../../../common/text-controls.js';
import { LANGUAGE_TEXTS, translationKeyLabel, translationLimit, type TranslatedCollection } from '../../../../common/languages.js';
import { can, type Role } from '../../../../common/permissions.js';
import type { Database } from '../../../db/types.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { nowIso } from '../../../platform/support/clock.js';
import type { Actor } from '../../../platform/writes/audit.js';
import type { Command } from '../../../platform/writes/command.js';
import { recordVersions } from '../../publishing/versions/index.js';
import type { SourceRecord, TranslatedPart, TranslatedParts } from './adapters.js';
import { translationsRepository as repo, type TranslationRow } from './repository.js';

export const sourceHash = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/** One record's translation changes in one language: texts set ('' removes one) and fields confirmed as still right. */
export interface RecordTranslation {
  recordId: string;
  lang: string;
  /** The record's edit version the translator saw; null takes the current one (an import's rows were checked against it). */
  version: number | null;
  texts: Record<string, string>;
  confirm: readonly string[];
  /** The English a text was made from, when it is not the current one (an older file imported): kept, so the text is marked. */
  sources?: Record<string, string>;
}

/**
 * Writes translation changes in the caller's command: per record, the rows, the record's edit
 * version moved (409 when it moved since `version`), one UPDATE audit entry with the changed
 * translations before and after, and one version with the record's snapshot. Returns how many
 * translations changed.
 */
export async function writeTranslations(
  trx: Transaction<Database>,
  cmd: Command,
  parts: TranslatedParts,
  part: TranslatedPart,
  changes: readonly RecordTranslation[],
  actor: Actor,
): Promise<number> {
  const collection: TranslatedCollection = part.collection;
  const sources = await part.sources(
    trx,
    changes.map((c) => c.recordId),
  );
  const existing = new Map<string, TranslationRow>();
  for (const row of await repo.ofRecords(
    trx,
    collection,
    changes.map((c) => c.recordId),
  ))
    existing.set(`${row.recordId}\u0000${row.field}@${row.lang}`, row);
  const now = nowIso();
  const planned = changes
    .map((change) => {
      const source = sources.get(change.recordId);
      if (!source) fail('NOT_FOUND');
      checkTranslations(collection, source, change.texts);
      return { change, source, ...planRecord(collection, change, source, existing, actor, now) };
    })
    .filter((p) => p.puts.length + p.removes.length > 0);
  if (planned.length === 0) return 0;
  // The rows first, in a few statements: a record whose search reads its translations then takes them in.
  await repo.put(
    trx,
    planned.flatMap((p) => p.puts),
  );
  await repo.remove(
    trx,
    planned.flatMap((p) => p.removes.map((field) => ({ collection, recordId: p.change.recordId, field, lang: p.change.lang }))),
  );
  await repo.stamp(
    trx,
    collection,
    planned.map((p) => p.change.lang),
  );
  for (const { change, source } of planned) {
    const moved = await part.touch(trx, change.recordId, change.version ?? source.version, now, cmd);
    if (moved === 0) fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: source.version });
  }
  const auditIds = await cmd.auditMany(
    planned.map(({ change, source, before, after }) => ({
      action: 'UPDATE' as const,
      collection,
      documentId: change.recordId,
      documentName: source.name,
      description: `Translated ${Object.keys(after)
        .map((k) => translationKeyLabel(collection, k))
        .join(', ')} of "${source.name}"`,
      changes: { before, after },
      details: { language: change.lang },
    })),
  );
  if (collection === 'maintenance')
    await touchUsers(
      trx,
      cmd,
      parts,
      planned.map((p) => p.change.recordId),
      now,
    );
  const snapshots = await part.snapshots(
    trx,
    planned.map((p) => p.change.recordId),
  );
  await recordVersions(
    trx,
    planned.map(({ change, source }, i) => ({
      collection,
      documentId: change.recordId,
      recordVersion: (change.version ?? source.version) + 1,
      auditId: auditIds[i] ?? null,
      actor,
      snapshot: snapshots.get(change.recordId)!,
      kind: 'edit' as const,
    })),
  );
  return planned.reduce((n, p) => n + p.puts.length + p.removes.length, 0);
}

/** Option values are File Maintenance's: only a role that may manage it translates them, or publishes their translations (403). */
export function requireTranslatorOf(collection: string, role: Role): void {
  if (collection === 'maintenance' && !can(role, 'maintenance.manage')) fail('FORBIDDEN');
}

/** The editor's texts checked against the record's translatable fields and the length limit (400 naming the field). */
export function checkTranslations(collection: string, source: SourceRecord, texts: Record<string, string>): void {
  for (const [field, text] of Object.entries(texts)) {
    const problem = translationProblem(collection, field, source, text);
    if (problem) invalid({ [field]: problem });
  }
}

/** Why a translation of this field cannot be stored, or null. */
export function translationProblem(collection: string, field: string, source: SourceRecord, text: string): string | null {
  if (source.fields[field] === undefined) return LANGUAGE_TEXTS.errors.notTranslated;
  const max = translationLimit(collection, field);
  if (text.trim().length > max) return LANGUAGE_TEXTS.import.tooLong(max);
  if (hasControlCharacters(text)) return CONTROL_TEXTS.refused(visibleControls(text));
  return null;
}

function planRecord(
  collection: string,
  change: RecordTranslation,
  source: SourceRecord,
  existing: Map<string, TranslationRow>,
  actor: Actor,
  now: string,
) {
  const puts: TranslationRow[] = [];
  const removes: string[] = [];
  const before: Record<string, string | null> = {};
  const after: Record<string, string | null> = {};
  const key = (field: string) => `${field}@${change.lang}`;
  for (const [field, raw] of Object.entries(change.texts)) {
    const english = source.fields[field];
    if (english === undefined) invalid({ [field]: LANGUAGE_TEXTS.errors.notTranslated });
    const text = raw.trim();
    const old = existing.get(`${change.recordId}\u0000${key(field)}`);
    if (text === '') {
      if (old) {
        removes.push(field);
        before[key(field)] = old.text;
        after[key(field)] = null;
      }
      continue;
    }
    const madeFrom = change.sources?.[field] ?? english;
    if (old && old.text === text && old.sourceHash === sourceHash(madeFrom)) continue;
    puts.push({
      collection,
      recordId: change.recordId,
      field,
      lang: change.lang,
      text,
      sourceText: madeFrom,
      sourceHash: sourceHash(madeFrom),
      updatedAt: now,
      updatedBy: actor.id,
    });
    before[key(field)] = old?.text ?? null;
    after[key(field)] = text;
  }
  for (const field of change.confirm) {
    const english = source.fields[field];
    const old = existing.get(`${change.recordId}\u0000${key(field)}`);
    if (english === undefined || !old || field in change.texts || old.sourceHash === sourceHash(english)) continue;
    puts.push({ ...old, sourceText: english, sourceHash: sourceHash(english), updatedAt: now, updatedBy: actor.id });
    before[key(field)] = old.text;
    after[key(field)] = old.text;
  }
  return { puts, removes, before, after };
}

/**
 * A version restored brings its translations back (`<field>@<language>` to text), in the
 * restore's transaction and before the record's row is written (a search text reads them): each
 * as made from the English restored with it. Fields without English lose theirs.
 */
export async function restoreTranslations(
  trx: Transaction<Database>,
  collection: string,
  recordId: string,
  translations: Record<string, string>,
  english: Record<string, string | null>,
  actorId: string,
): Promise<void> {
  const now = nowIso();
  const before = await repo.ofRecords(trx, collection, [recordId]);
  const rows: TranslationRow[] = [];
  for (const [key, text] of Object.entries(translations)) {
    const at = key.lastIndexOf('@');
    const [field, lang] = [key.slice(0, at), key.slice(at + 1)];
    const source = english[field];
    if (at <= 0 || !source) continue;
    rows.push({
      collection,
      recordId,
      field,
      lang,
      text,
      sourceText: source,
      sourceHash: sourceHash(source),
      updatedAt: now,
      updatedBy: actorId,
    });
  }
  await repo.replaceOfRecord(trx, collection, recordId, rows);
  await repo.stamp(trx, collection, [...before.map((r) => r.lang), ...rows.map((r) => r.lang)]);
}

/** The collections whose records show an option document's values. */
const USERS_OF: Record<string, TranslatedCollection[]> = {
  rice_varieties_enums: ['rice_seed_varieties'],
  rice_diseases_enums: ['rice_local_diseases'],
};

/** Records that show translated values (or every translated record, for a language in or out of use) are synced again. */
export async function touchUsers(
  trx: Transaction<Database>,
  cmd: Command,
  parts: TranslatedParts,
  docIds: readonly string[] | 'all',
  now: string,
): Promise<void> {
  const collections = docIds === 'all' ? [...parts.keys()] : [...new Set(docIds.flatMap((d) => USERS_OF[d] ?? []))];
  for (const c of collections) await parts.get(c)?.touchAll?.(trx, now, cmd);
}
