import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { movePendingStamps } from '../cache/stamps.js';
import { appendAuditRows, auditRow, writeAudit, type Actor, type AuditEntry } from './audit.js';
import type { EventBus, LiveEvent } from './events.js';
import { announceEnded, endAccountSessions, type EndReason } from '../identity/sessions.js';

/** What a command's work is given besides its transaction. */
export interface Command {
  /** Writes an audit entry by the command's actor in the command's transaction; returns its id. */
  audit(entry: AuditEntry): Promise<string>;
  /** Many entries by the command's actor in a few statements (an import writes one per record); their ids in order. */
  auditMany(entries: readonly AuditEntry[]): Promise<string[]>;
  /** Queues a live event; it is published after commit, never when the transaction rolls back. */
  publish(event: LiveEvent): void;
  /** Queues work for after commit (a cache to drop, files to delete), in order with the events. */
  afterCommit(step: () => void | Promise<void>): void;
  /** Queues work for when the transaction rolls back (files moved during it moved back), last queued first. */
  onRollback(step: () => Promise<void>): void;
  /** Ends the account's open sessions in the transaction; their tabs are told after commit. */
  endSessions(accountId: string, reason: EndReason, exceptSessionId?: string): Promise<string[]>;
}

/** An open command: its transaction and what its work is given. */
export interface CommandScope {
  trx: Transaction<Database>;
  cmd: Command;
}

export interface CommandDeps {
  db: Kysely<Database>;
  /** null where no one listens (the create-admin command, the start-up defaults). */
  events: EventBus | null;
  /** Set by inCommand: the open command this context's writes join instead of starting their own. */
  within?: CommandScope;
}

/**
 * The context a collection's service is given to save inside a command its caller opened (a
 * publish, a version restore): its reads go through that command's transaction, and its
 * runCommand runs its work there, so the caller's writes and the service's commit or roll back
 * together.
 */
export function inCommand<C extends CommandDeps & { app?: unknown }>(ctx: C, scope: CommandScope): C {
  return { ...ctx, db: scope.trx, within: scope, app: ctx.app ?? ctx };
}

/**
 * The one write path (in the spirit of Outline's server/commands): `work` runs in one
 * transaction with the record's write and its audit entries; after commit the queued events
 * are published in order. An audit entry with no event of its own (a blocked login, a wrong
 * recovery answer) is announced as `audit_logs`, so the History screen never has to poll.
 */
export async function runCommand<T>(
  deps: CommandDeps,
  actor: Actor | null,
  work: (trx: Transaction<Database>, cmd: Command) => Promise<T>,
): Promise<T> {
  if (deps.within) return work(deps.within.trx, deps.within.cmd);
  const after: Array<() => void | Promise<void>> = [];
  const undo: Array<() => Promise<void>> = [];
  let audited = 0;
  let published = 0;
  const attempt = deps.db.transaction().execute((trx) => {
    // A retried attempt starts with nothing queued for after commit; what an earlier attempt
    // did outside the database (undo) stays queued until the command succeeds or fails.
    after.length = 0;
    audited = 0;
    published = 0;
    const cmd: Command = {
      async audit(entry) {
        audited += 1;
        return writeAudit(trx, actor, entry);
      },
      async auditMany(entries) {
        audited += entries.length;
        const rows = entries.map((entry) => auditRow(actor, entry));
        await appendAuditRows(trx, rows);
        return rows.map((row) => row.id);
      },
      publish(event) {
        published += 1;
        after.push(() => deps.events?.publish(event));
      },
      afterCommit(step) {
        after.push(step);
      },
      onRollback(step) {
        undo.push(step);
      },
      async endSessions(accountId, reason, exceptSessionId) {
        const ids = await endAccountSessions(trx, accountId, reason, exceptSessionId);
        if (ids.length > 0)
          after.push(() => {
            if (deps.events) announceEnded(deps.events, accountId, ids, reason);
          });
        return ids;
      },
    };
    return work(trx, cmd).then(async (result) => {
      await movePendingStamps(trx);
      return result;
    });
  });
  let result: T;
  try {
    result = await attempt;
  } catch (err) {
    // Each undo step reports its own failure; the caller gets the command's error.
    for (const step of undo.reverse()) await step().catch(() => undefined);
    throw err;
  }
  for (const step of after) await step();
  if (audited > 0 && published === 0) deps.events?.publish({ topic: 'audit_logs', op: 'create' });
  return result;
}
