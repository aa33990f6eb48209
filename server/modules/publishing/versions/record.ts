import type { Transaction } from 'kysely';
import { VERSION_FIELDS, type VersionCollection, type VersionSummary } from '../../../../common/versions.js';
import type { Database } from '../../../db/types.js';
import { SYSTEM_ACTOR, type Actor } from '../../../platform/writes/audit.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import { versionsRepository as repo } from './repository.js';
import { parseSnapshot, summarize, type Snapshot } from './snapshots.js';

export interface VersionWrite {
  collection: VersionCollection;
  documentId: string;
  /** The record's edit version after the save. */
  recordVersion: number;
  /** The audit entry the save wrote. */
  auditId: string | null;
  actor: Actor | null;
  snapshot: Snapshot;
  kind: Exclude<VersionSummary['kind'], 'first'>;
  restoredFrom?: number;
}

/**
 * Writes the versions saves made, in their transaction, after the records' rows were written
 * (a row's lock orders concurrent saves of one record, so its numbers follow each other). Each
 * is numbered after, and summarised against, its record's latest version: read in one query
 * per collection for any number of records (an import writes thousands).
 */
export async function recordVersions(trx: Transaction<Database>, writes: readonly VersionWrite[]): Promise<void> {
  const rows = [];
  for (const collection of new Set(writes.map((w) => w.collection))) {
    const mine = writes.filter((w) => w.collection === collection);
    const latest = await repo.latestOf(
      trx,
      collection,
      mine.map((w) => w.documentId),
    );
    const keys = Object.keys(VERSION_FIELDS[collection]);
    for (let write of mine) {
      const previous = latest.get(write.documentId);
      // A save that does not name translations keeps the ones the record had.
      const before = previous ? parseSnapshot(previous.snapshot) : null;
      if (write.snapshot.translations === undefined && before?.translations)
        write = { ...write, snapshot: { ...write.snapshot, translations: before.translations } };
      const summary = summarize(keys, before, write.snapshot, write.kind, write.restoredFrom ?? null);
      rows.push(row(write, (previous?.number ?? 0) + 1, summary));
    }
  }
  await repo.insert(trx, rows);
}

/** The version one save made. */
export function recordVersion(trx: Transaction<Database>, write: VersionWrite): Promise<void> {
  return recordVersions(trx, [write]);
}

function row(write: VersionWrite, number: number, summary: VersionSummary) {
  return {
    id: newId(),
    collection: write.collection,
    documentId: write.documentId,
    number,
    recordVersion: write.recordVersion,
    auditId: write.auditId,
    actorId: (write.actor ?? SYSTEM_ACTOR).id,
    actorName: (write.actor ?? SYSTEM_ACTOR).fullname,
    createdAt: nowIso(),
    snapshot: JSON.stringify(write.snapshot),
    summary: JSON.stringify(summary),
  };
}
