import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import { LANGUAGE_TEXTS, translationKeyLabel, type TranslatedCollection } from '../../../common/languages.js';
import type { Database } from '../../db/types.js';
import { fail, invalid } from '../../platform/http/errors.js';
import { nowIso } from '../../platform/support/clock.js';
import type { Actor } from '../../platform/writes/audit.js';
import type { Command } from '../../platform/writes/command.js';
import { recordVersions } from '../versions/record.js';
import type { SourceRecord, TranslatedPart } from './adapters.js';
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
}

/**
 * Writes translation changes in the caller's command: per record, the rows, the record's edit
 * version moved (409 when it moved since `version`), one UPDATE audit entry with the changed
 * translations before and after, and one version with the record's snapshot. Returns how many
 * translations changed.
 */
export async function writeTranslations(
  trx: Transaction<Database>, cmd: Command, part: TranslatedPart, changes: readonly RecordTranslation[], actor: Actor,
): Promise<number> {
  const collection: TranslatedCollection = part.collection;
  const sources = await part.sources(trx, changes.map((c) => c.recordId));
  const existing = new Map<string, TranslationRow>();
  for (const row of await repo.ofRecords(trx, collection, changes.map((c) => c.recordId))) existing.set(`${row.recordId}\u0000${row.field}@${row.lang}`, row);
  const now = nowIso();
  let changed = 0;
  const versions = [];
  for (const change of changes) {
    const source = sources.get(change.recordId);
    if (!source) fail('NOT_FOUND');
    const { puts, removes, before, after } = planRecord(collection, change, source, existing, actor, now);
    if (puts.length + removes.length === 0) continue;
    changed += puts.length + removes.length;
    await repo.put(trx, puts);
    await repo.remove(trx, removes.map((field) => ({ collection, recordId: change.recordId, field, lang: change.lang })));
    // After the rows: a record whose search reads its translations takes the new ones in.
    const moved = await part.touch(trx, change.recordId, change.version ?? source.version, now, cmd);
    if (moved === 0) fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: source.version });
    const auditId = await cmd.audit({
      action: 'UPDATE', collection, documentId: change.recordId, documentName: source.name,
      description: `Translated ${Object.keys(after).map((k) => translationKeyLabel(collection, k)).join(', ')} of "${source.name}"`,
      changes: { before, after }, details: { language: change.lang },
    });
    versions.push({ collection, documentId: change.recordId, recordVersion: (change.version ?? source.version) + 1, auditId, actor, snapshot: await part.snapshot(trx, change.recordId), kind: 'edit' as const });
  }
  await recordVersions(trx, versions);
  return changed;
}

function planRecord(collection: string, change: RecordTranslation, source: SourceRecord, existing: Map<string, TranslationRow>, actor: Actor, now: string) {
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
      if (old) { removes.push(field); before[key(field)] = old.text; after[key(field)] = null; }
      continue;
    }
    if (old && old.text === text && old.sourceHash === sourceHash(english)) continue;
    puts.push({ collection, recordId: change.recordId, field, lang: change.lang, text, sourceText: english, sourceHash: sourceHash(english), updatedAt: now, updatedBy: actor.id });
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
