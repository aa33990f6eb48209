import type { Kysely, Transaction } from 'kysely';
import { VERSION_COLLECTIONS, VERSION_FIELDS, type VersionCollection } from '../../../../common/versions.js';
import type { Database } from '../../../db/types.js';
import { chunks } from '../../../db/dialect.js';
import { nowIso, newId } from '../../../platform/support/clock.js';
import type { Actor } from '../../../platform/writes/audit.js';
import type { AppContext } from '../../../platform/http/context.js';
import { versionedCollection } from './adapters.js';
import { recordVersion } from './record.js';
import { versionsRepository as repo } from './repository.js';
import { summarize, type Snapshot } from './snapshots.js';

type Db = Kysely<Database> | Transaction<Database>;
type Collections = Pick<AppContext, 'collections'>;

/** The record as stored now, as a snapshot, with its edit version; undefined when there is no such record. */
export async function currentSnapshot(
  ctx: Collections,
  db: Db,
  collection: VersionCollection,
  id: string,
): Promise<{ snapshot: Snapshot; recordVersion: number } | undefined> {
  return (await versionedCollection(ctx, collection).current(db, [id])).get(id);
}

/** A save that changed the record outside its service's own write (a photo removed in Dataset health): its version as stored now. */
export async function recordCurrentVersion(
  ctx: Collections,
  trx: Transaction<Database>,
  collection: VersionCollection,
  id: string,
  auditId: string,
  actor: Actor,
): Promise<void> {
  const current = await currentSnapshot(ctx, trx, collection, id);
  if (current)
    await recordVersion(trx, {
      collection,
      documentId: id,
      recordVersion: current.recordVersion,
      auditId,
      actor,
      snapshot: current.snapshot,
      kind: 'edit',
    });
}

/**
 * A first version for every record that has none (records from before versions were kept, and
 * the Firebase import's), from its current state; run after the migrations at start-up.
 * Returns how many were written.
 */
export async function backfillFirstVersions(ctx: Collections & { db: Kysely<Database> }, batch = 5000): Promise<number> {
  const { db } = ctx;
  let written = 0;
  for (const collection of VERSION_COLLECTIONS) {
    const keys = Object.keys(VERSION_FIELDS[collection]);
    const adapter = versionedCollection(ctx, collection);
    for (let afterId: string | null = ''; afterId !== null;) {
      const { lastId, rows } = await repo.withoutVersion(db, collection, afterId, batch);
      afterId = lastId;
      for (const part of chunks(rows)) {
        const current = await adapter.current(
          db,
          part.map((r) => String(r.id)),
        );
        const firsts = part.flatMap((r) => {
          const now = current.get(String(r.id));
          return now ? [{ row: r, ...now }] : [];
        });
        await repo.insertFirst(
          db,
          firsts.map(({ row: r, snapshot, recordVersion }) => ({
            id: newId(),
            collection,
            documentId: String(r.id),
            number: 1,
            recordVersion,
            auditId: null,
            actorId: null,
            actorName: null,
            createdAt: String(r.updatedAt ?? r.createdAt ?? nowIso()),
            snapshot: JSON.stringify(snapshot),
            summary: JSON.stringify(summarize(keys, null, snapshot, 'first', null)),
          })),
        );
        written += firsts.length;
      }
    }
  }
  return written;
}
