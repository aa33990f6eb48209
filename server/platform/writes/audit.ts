import type { Insertable, Kysely, Transaction } from 'kysely';
import { chunks, isPostgres } from '../../db/dialect.js';
import type { HistoryAction } from '../../../common/history.js';
import type { Database } from '../../db/types.js';
import type { AuditLogsTable } from '../../db/types/audit.js';
import { CHAINED_FIELDS, entryHash, storedText } from './audit-hash.js';
import { newId, nowIso } from '../support/clock.js';
import { every } from '../background/jobs.js';
import { createRunner } from '../background/runner.js';

export type AuditAction = HistoryAction;

/** Who did it. Without a valid session the entry names 'System User' (docs/PRODUCT.md section 3). */
export interface Actor {
  id: string;
  fullname: string;
  email: string | null;
}

export const SYSTEM_ACTOR: Actor = { id: 'system', fullname: 'System User', email: null };

export interface AuditEntry {
  action: AuditAction;
  collection: string;
  documentId: string | null;
  documentName: string | null;
  description: string;
  changes?: { before: unknown; after: unknown } | undefined;
  details?: Record<string, unknown> | undefined;
}

/**
 * The one audit writer. Call it with the write's own transaction so the record and its
 * audit entry commit together or not at all. Entries are append-only and chained
 * (appendAuditRows, sealAuditChain).
 */
export async function writeAudit(trx: Transaction<Database> | Kysely<Database>, actor: Actor | null, entry: AuditEntry): Promise<string> {
  const row = auditRow(actor, entry);
  await appendAuditRows(trx, [row]);
  return row.id;
}

/** The stored row of an entry by `actor` (System User without one), with a new id and the time now. */
export function auditRow(actor: Actor | null, entry: AuditEntry): AuditRow & { id: string } {
  const who = actor ?? SYSTEM_ACTOR;
  return {
    id: newId(),
    userId: who.id,
    userName: who.fullname,
    userEmail: who.email,
    timestamp: nowIso(),
    action: entry.action,
    collection: entry.collection,
    documentId: entry.documentId,
    documentName: entry.documentName,
    description: entry.description,
    changes: entry.changes ? JSON.stringify(entry.changes) : null,
    details: entry.details ? JSON.stringify(entry.details) : null,
    actorId: null,
    performedBy: null,
    name: null,
  };
}

/** An audit row as stored; the chain's place and hashes live beside it (audit_chain_links). */
export type AuditRow = Omit<Insertable<AuditLogsTable>, 'seq'>;

/**
 * Appends audit rows in the caller's transaction, each with a line in audit_pending, and no
 * lock: the chain's sealer (sealAuditChain) gives them their place and hashes right after they
 * commit. Writers never wait for one another (saves keep PostgreSQL's group commit) and an
 * entry is never updated once written.
 */
export async function appendAuditRows(db: Transaction<Database> | Kysely<Database>, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, storedText(v)])) as AuditRow);
  for (const part of chunks(values)) {
    const inserted = await db.insertInto('audit_logs').values(part).returning('seq').execute();
    await db
      .insertInto('audit_pending')
      .values(inserted.map((r) => ({ seq: Number(r.seq) })))
      .execute();
  }
  for (const nudge of nudges) nudge();
}

const SEAL_BATCH = 1000;

/**
 * Chains every committed entry waiting in audit_pending, in seq order, after the head: reads
 * the head under a lock (FOR UPDATE on PostgreSQL; on SQLite a write first, which takes the one
 * writer lock), so instances and processes seal one after another and form one chain.
 * Returns how many entries it chained.
 */
export async function sealAuditChain(db: Kysely<Database>): Promise<number> {
  // Most rounds find nothing: one read of a near-empty table says so, with no lock and no write.
  const waiting = await db.selectFrom('audit_pending').select('seq').limit(1).executeTakeFirst();
  if (!waiting) return 0;
  let sealed = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const { lastIndex, lastHash } = isPostgres(trx)
        ? await trx.selectFrom('audit_chain').select(['lastIndex', 'lastHash']).where('id', '=', 1).forUpdate().executeTakeFirstOrThrow()
        : await trx
            .updateTable('audit_chain')
            .set((eb) => ({ lastIndex: eb.ref('lastIndex') }))
            .where('id', '=', 1)
            .returning(['lastIndex', 'lastHash'])
            .executeTakeFirstOrThrow();
      const pending = await trx.selectFrom('audit_pending').select('seq').orderBy('seq').limit(SEAL_BATCH).execute();
      if (pending.length === 0) return 0;
      const seqs = pending.map((p) => Number(p.seq));
      const rows = await trx
        .selectFrom('audit_logs')
        .select(['seq', ...CHAINED_FIELDS])
        .where('seq', 'in', seqs)
        .orderBy('seq')
        .execute();
      let index = lastIndex;
      let prev = lastHash;
      const links = rows.map((row) => {
        index += 1;
        const seq = Number(row.seq);
        const hash = entryHash(prev, { ...row, seq });
        const link = { chainIndex: index, seq, prevHash: prev, hash };
        prev = hash;
        return link;
      });
      for (let i = 0; i < links.length; i += 500)
        await trx
          .insertInto('audit_chain_links')
          .values(links.slice(i, i + 500))
          .execute();
      await trx.deleteFrom('audit_pending').where('seq', 'in', seqs).execute();
      await trx.updateTable('audit_chain').set({ lastIndex: index, lastHash: prev }).where('id', '=', 1).execute();
      return pending.length;
    });
    sealed += n;
    if (n < SEAL_BATCH) return sealed;
  }
}

/**
 * The sealers running in this process, nudged by every append: they run a moment later, once
 * its writer has likely committed, and seal whatever arrived meanwhile in one round (a round is
 * seven statements; one per save would cost more than the sealing itself).
 */
const NUDGE_DELAY_MS = 200;
const nudges = new Set<() => void>();

export interface AuditSealer {
  /** Seals now (or after the run in progress, once more); resolves when no run is due. */
  seal(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Keeps the chain sealed while the server runs: 200 ms after an append in this process, and
 * every second for entries written by other instances or commands (an import).
 */
export function startAuditSealer(db: Kysely<Database>, onError: (err: unknown) => void, everyMs = 1000): AuditSealer {
  let soon: NodeJS.Timeout | null = null;
  const runner = createRunner({
    round: async () => {
      await sealAuditChain(db);
    },
    onError,
  });
  const run = runner.kick;
  const nudge = () => {
    soon ??= setTimeout(() => {
      soon = null;
      void run();
    }, NUDGE_DELAY_MS);
  };
  nudges.add(nudge);
  const stopTimer = every(everyMs, () => void run());
  return {
    seal: run,
    async stop() {
      nudges.delete(nudge);
      stopTimer();
      if (soon) clearTimeout(soon);
      await runner.close();
      await sealAuditChain(db).catch(onError);
    },
  };
}
