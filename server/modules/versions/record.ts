import type { Transaction } from 'kysely';
import { VERSION_FIELDS, type VersionCollection, type VersionSummary } from '../../../common/versions.js';
import type { Database } from '../../db/types.js';
import { SYSTEM_ACTOR, type Actor } from '../../platform/audit.js';
import { newId, nowIso } from '../../platform/clock.js';
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
 * Writes the version a save made, in the save's transaction, after the record's row was
 * written (its lock orders concurrent saves of one record, so the numbers follow each other).
 */
export async function recordVersion(trx: Transaction<Database>, write: VersionWrite): Promise<number> {
  const previous = await repo.latest(trx, write.collection, write.documentId);
  const keys = Object.keys(VERSION_FIELDS[write.collection]);
  const summary = summarize(keys, previous ? parseSnapshot(previous.snapshot) : null, write.snapshot, write.kind, write.restoredFrom ?? null);
  const number = (previous?.number ?? 0) + 1;
  await repo.insert(trx, [row(write, number, summary)]);
  return number;
}

/** Version 1 of many records created in one command (a spreadsheet import). */
export async function recordCreatedVersions(trx: Transaction<Database>, writes: readonly VersionWrite[]): Promise<void> {
  const keys = (c: VersionCollection) => Object.keys(VERSION_FIELDS[c]);
  await repo.insert(trx, writes.map((w) => row(w, 1, summarize(keys(w.collection), null, w.snapshot, 'create', null))));
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
