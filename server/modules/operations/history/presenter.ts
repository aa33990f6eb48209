import type { Kysely } from 'kysely';
import type { HistoryDetail, HistoryEntry } from '../../../../common/schemas/history.js';
import { ACTIVITY } from '../../../../common/texts.js';
import type { Database } from '../../../db/types.js';
import { SYSTEM_ACTOR } from '../../../platform/writes/audit.js';
import { historyRepository as repo, type ExportRow, type ListRow } from './repository.js';

/** Current names of accounts, by id, for entries that recorded only an actor id. */
export type Names = Map<string, { fullname: string; email: string | null }>;
type TextRow = Pick<ListRow, 'userName' | 'userEmail' | 'documentName' | 'name' | 'description'>;
type DetailRow = NonNullable<Awaited<ReturnType<typeof repo.findById>>>;

/** Account names for rows that recorded only an actor id (older entries); added to `cache`. */
export async function namesFor(db: Kysely<Database>, keys: Array<string | null>, cache: Names = new Map()): Promise<Names> {
  const missing = [...new Set(keys.filter((k): k is string => !!k && !cache.has(k)))];
  if (missing.length > 0) {
    const found = await repo.accountNames(db, missing);
    for (const id of missing) cache.set(id, found.get(id) ?? { fullname: '', email: null });
  }
  return cache;
}

export function actorOf(row: { userId: string | null; actorId: string | null; performedBy: string | null }): string | null {
  return row.userId ?? row.actorId ?? row.performedBy;
}

/** The searched text of a list row: user, e-mail, document, description. */
export function listText(row: TextRow): Array<string | null> {
  return [row.userName, row.userEmail, row.documentName ?? row.name, row.description];
}

/** The searched text of an export row: user, e-mail, document, description. */
export function exportText(row: ExportRow): Array<string | null> {
  return [row.userName, row.userEmail, row.document, row.description];
}

/** The user as shown: the recorded name, else the account's current one, else the id. */
export function userLabel(recorded: string | null, key: string | null, names: Names): string {
  const account = key ? names.get(key) : undefined;
  return recorded || account?.fullname || (key === SYSTEM_ACTOR.id ? SYSTEM_ACTOR.fullname : key) || ACTIVITY.unknownName;
}

export function presentEntry(row: ListRow, names: Names): HistoryEntry {
  const key = actorOf(row);
  return {
    id: row.id,
    timestamp: row.timestamp,
    userId: key,
    userName: userLabel(row.userName, key, names),
    userEmail: row.userEmail ?? (key ? names.get(key)?.email : null) ?? null,
    action: row.action,
    collection: row.collection,
    documentId: row.documentId,
    documentName: row.documentName ?? row.name,
    description: row.description,
    hasChanges: Boolean(Number(row.hasChanges)),
  };
}

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** One entry with its changes {before, after} and details, as stored JSON (unreadable JSON as none). */
export function presentDetail(row: DetailRow, names: Names): HistoryDetail {
  const changes = parseJson(row.changes) as { before?: unknown; after?: unknown } | null;
  const details = parseJson(row.details);
  return {
    ...presentEntry({ ...row, hasChanges: row.changes ? 1 : 0 }, names),
    changes: changes && typeof changes === 'object' ? { before: changes.before ?? null, after: changes.after ?? null } : null,
    details: details && typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : null,
  };
}
