import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import { isPostgres } from '../db/dialect.js';
import type { AuditLogsTable, Database } from '../db/types.js';
import { CHAINED_FIELDS, entryHash, storedText } from './audit-hash.js';
import { newId, nowIso } from './clock.js';

export type AuditAction = 'CREATE' | 'UPDATE' | 'DELETE' | 'RESTRICT' | 'UNRESTRICT' | 'LOGIN';

/** Who did it. Without a valid session the entry names 'System User' (SPEC.md section 3). */
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

/** An audit row as stored, before the chain gives it its place and hashes. */
export type AuditRow = Omit<Insertable<AuditLogsTable>, 'seq' | 'chainIndex' | 'prevHash' | 'hash'>;

/**
 * The one audit writer. Call it with the write's own transaction so the record and its
 * audit entry commit together or not at all. Entries are append-only and chained
 * (appendAuditRows, sealAuditChain).
 */
export async function writeAudit(trx: Transaction<Database> | Kysely<Database>, actor: Actor | null, entry: AuditEntry): Promise<string> {
  const who = actor ?? SYSTEM_ACTOR;
  const id = newId();
  await appendAuditRows(trx, [{
    id,
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
  }]);
  return id;
}

/**
 * Appends audit rows in the caller's transaction, without a lock: the chain's sealer
 * (sealAuditChain) gives them their place and hashes right after they commit. Writers never
 * wait for one another, so saves keep PostgreSQL's group commit.
 */
export async function appendAuditRows(db: Transaction<Database> | Kysely<Database>, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, storedText(v)])) as AuditRow);
  for (let i = 0; i < values.length; i += 500) await db.insertInto('audit_logs').values(values.slice(i, i + 500)).execute();
  for (const nudge of nudges) nudge();
}

const SEAL_BATCH = 1000;

/**
 * Chains every committed entry that has no place yet, in seq order, after the head: reads
 * the head under a lock (FOR UPDATE on PostgreSQL; on SQLite a write first, which takes the one
 * writer lock), so instances and processes seal one after another and form one chain.
 * Returns how many entries it chained.
 */
export async function sealAuditChain(db: Kysely<Database>): Promise<number> {
  // Most rounds find nothing: a read on the partial index, no lock and no write, says so.
  const waiting = await db.selectFrom('audit_logs').select('seq').where('chainIndex', 'is', null).limit(1).executeTakeFirst();
  if (!waiting) return 0;
  let sealed = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const { lastIndex, lastHash } = isPostgres(trx)
        ? await trx.selectFrom('audit_chain').select(['lastIndex', 'lastHash']).where('id', '=', 1).forUpdate().executeTakeFirstOrThrow()
        : await trx.updateTable('audit_chain').set((eb) => ({ lastIndex: eb.ref('lastIndex') })).where('id', '=', 1).returning(['lastIndex', 'lastHash']).executeTakeFirstOrThrow();
      const rows = await trx.selectFrom('audit_logs').select(['seq', ...CHAINED_FIELDS]).where('chainIndex', 'is', null).orderBy('seq').limit(SEAL_BATCH).execute();
      if (rows.length === 0) return 0;
      let index = lastIndex;
      let prev = lastHash;
      const links = rows.map((row) => {
        index += 1;
        const seq = Number(row.seq);
        const hash = entryHash(prev, { ...row, seq });
        const link = { seq, chainIndex: index, prevHash: prev, hash };
        prev = hash;
        return link;
      });
      if (isPostgres(trx)) {
        const values = sql.join(links.map((l) => sql`(${l.seq}::bigint, ${l.chainIndex}::integer, ${l.prevHash}, ${l.hash})`));
        await sql`update audit_logs as a set "chainIndex" = v.i, "prevHash" = v.p, "hash" = v.h from (values ${values}) as v(s, i, p, h) where a.seq = v.s`.execute(trx);
      } else {
        for (const l of links) await trx.updateTable('audit_logs').set({ chainIndex: l.chainIndex, prevHash: l.prevHash, hash: l.hash }).where('seq', '=', l.seq).execute();
      }
      await trx.updateTable('audit_chain').set({ lastIndex: index, lastHash: prev }).where('id', '=', 1).execute();
      return rows.length;
    });
    sealed += n;
    if (n < SEAL_BATCH) return sealed;
  }
}

/** The sealers running in this process, nudged by every append (they run once its writer has likely committed). */
const nudges = new Set<() => void>();

export interface AuditSealer {
  /** Seals now (or waits for the run in progress, then runs again). */
  seal(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Keeps the chain sealed while the server runs: 20 ms after an append in this process, and
 * every second for entries written by other instances or commands (an import).
 */
export function startAuditSealer(db: Kysely<Database>, onError: (err: unknown) => void, everyMs = 1000): AuditSealer {
  let running: Promise<void> | null = null;
  let again = false;
  let soon: NodeJS.Timeout | null = null;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = sealAuditChain(db).then(() => undefined, onError).finally(() => {
      running = null;
      if (again) {
        again = false;
        void run();
      }
    });
    return running;
  };
  const nudge = () => {
    soon ??= setTimeout(() => { soon = null; void run(); }, 20);
  };
  nudges.add(nudge);
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  return {
    seal: run,
    async stop() {
      nudges.delete(nudge);
      clearInterval(timer);
      if (soon) clearTimeout(soon);
      await running;
      await sealAuditChain(db).catch(onError);
    },
  };
}
