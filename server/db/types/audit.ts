import type { Generated } from 'kysely';

/* The audit log and its tamper-evident chain (docs/AUDIT.md). */

export interface AuditLogsTable {
  seq: Generated<number>;
  id: string;
  userId: string | null;
  userName: string | null;
  userEmail: string | null;
  timestamp: string;
  action: string;
  collection: string | null;
  documentId: string | null;
  documentName: string | null;
  description: string | null;
  changes: string | null;
  details: string | null;
  actorId: string | null;
  performedBy: string | null;
  name: string | null;
}

/** An audit entry's place in the tamper-evident chain (platform/writes/audit-hash.ts, docs/AUDIT.md). */
export interface AuditChainLinksTable {
  chainIndex: number;
  seq: number;
  prevHash: string;
  hash: string;
}

/** Audit entries written and not chained yet: the sealer's work list. */
export interface AuditPendingTable {
  seq: number;
}

/** The chain's one row (id 1): its head, and its base once retention has archived entries. */
export interface AuditChainTable {
  id: number;
  lastIndex: number;
  lastHash: string;
  baseIndex: number;
  baseHash: string;
}

export interface AuditVerificationsTable {
  id: string;
  startedAt: string;
  finishedAt: string | null;
  status: 'running' | 'ok' | 'failed' | 'error';
  trigger: 'manual' | 'daily';
  requestedBy: string | null;
  checked: number;
  total: number;
  problem: string | null;
  problemIndex: number | null;
  problemId: string | null;
}

/** A scheduled backup (migration 194): its schedule slot, who made it, where it went, or why not. */
export interface BackupRunsTable {
  id: string;
  instance: string;
  startedAt: string;
  finishedAt: string | null;
  ok: number | null;
  location: string | null;
  files: number | null;
  bytes: number | null;
  error: string | null;
}
