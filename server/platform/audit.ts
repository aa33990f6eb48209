import type { Insertable, Kysely, Transaction } from 'kysely';
import { isPostgres } from '../db/dialect.js';
import type { AuditLogsTable, Database } from '../db/types.js';
import { entryHash, storedText } from './audit-hash.js';
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
 * (appendAuditRows).
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
 * Appends rows to the audit chain. The head row is locked first (FOR UPDATE on PostgreSQL; a
 * write on SQLite, which has one writer at a time), so the chain follows commit order even with concurrent
 * writers, and each row's seq is drawn after the lock: chain order and seq order agree.
 * The lock is held until the caller's transaction ends.
 */
export async function appendAuditRows(db: Transaction<Database> | Kysely<Database>, rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (!db.isTransaction) {
    await db.transaction().execute((trx) => appendAuditRows(trx, rows));
    return;
  }
  // PostgreSQL: lock the head row. SQLite: a write first, so the transaction holds the write
  // lock before it reads the head (a read first could not upgrade if another process, such as
  // the import command, wrote in between).
  const { lastIndex, lastHash } = isPostgres(db)
    ? await db.selectFrom('audit_chain').select(['lastIndex', 'lastHash']).where('id', '=', 1).forUpdate().executeTakeFirstOrThrow()
    : await db.updateTable('audit_chain').set((eb) => ({ lastIndex: eb.ref('lastIndex') })).where('id', '=', 1).returning(['lastIndex', 'lastHash']).executeTakeFirstOrThrow();
  let index = lastIndex;
  let prev = lastHash;
  const values = rows.map((input) => {
    index += 1;
    const row = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, storedText(v)])) as AuditRow;
    const hash = entryHash(prev, row);
    const linked = { ...row, chainIndex: index, prevHash: prev, hash };
    prev = hash;
    return linked;
  });
  for (let i = 0; i < values.length; i += 500) await db.insertInto('audit_logs').values(values.slice(i, i + 500)).execute();
  await db.updateTable('audit_chain').set({ lastIndex: index, lastHash: prev }).where('id', '=', 1).execute();
}
