import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types.js';
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

/**
 * The one audit writer. Call it with the write's own transaction so the record and its
 * audit entry commit together or not at all. Entries are append-only.
 */
export async function writeAudit(trx: Transaction<Database> | Kysely<Database>, actor: Actor | null, entry: AuditEntry): Promise<string> {
  const who = actor ?? SYSTEM_ACTOR;
  const id = newId();
  await trx.insertInto('audit_logs').values({
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
  }).execute();
  return id;
}
