import { normalizeRole, type Role } from '../../../../common/permissions.js';
import { REVIEW_TEXTS, type ReviewState } from '../../../../common/review.js';
import type { AppContext } from '../../../platform/http/context.js';
import { AppError, fail } from '../../../platform/http/errors.js';
import { nowIso } from '../../../platform/support/clock.js';
import { SYSTEM_ACTOR, writeAudit, type Actor } from '../../../platform/writes/audit.js';
import { inCommand, runCommand } from '../../../platform/writes/command.js';
import { reviewedAction } from './adapters.js';
import { notifyAuthor } from './notify.js';
import { changeOf, collectionLabel } from './presenter.js';
import { reviewRepository as repo, type ChangeRow } from './repository.js';
import { REVIEW_TOPIC } from './topic.js';
import { auditView, changeStates, decidedJson } from './states.js';

/** The change is no longer in the state its publisher read: another request or instance moved it. */
class ChangeMoved extends Error {}

export interface PublishOptions {
  publisher: Actor;
  /** The states (and version) the publisher read; the change moves from them or nothing is written. */
  from: { states: readonly ReviewState[]; version?: number };
  /** Approve and publish in one: the reviewer and their comment. */
  approve?: { comment: string | null };
  breakGlassReason?: string;
}

/**
 * The author as the save runs: their name, and the lesser of the role they sent the change
 * with and the one they hold now (a super admin demoted, deleted or restricted since publishes
 * with an admin's rights).
 */
async function authorOf(ctx: AppContext, row: ChangeRow): Promise<{ actor: Actor; role: Role }> {
  const account = await repo.author(ctx.db, row.authorId);
  const current = account && Number(account.isDeleted) === 0 && Number(account.isRestricted) === 0 ? normalizeRole(account.role) : 'ADMIN';
  const role: Role = row.authorRole === 'SYSTEM_ADMIN' && current === 'SYSTEM_ADMIN' ? 'SYSTEM_ADMIN' : 'ADMIN';
  return { actor: { id: row.authorId, fullname: account?.fullname ?? '', email: account?.email ?? null }, role };
}

/**
 * Publishes a change: its collection's own service saves it as its author would have, and in
 * that save's transaction the change moves to published with its APPROVE and PUBLISH entries.
 * Of any number of publishes of one change at once (approvals, instances' schedulers), one
 * moves it; the others' saves roll back. 409 when the record moved from the change's base.
 */
export async function publishChange(ctx: AppContext, row: ChangeRow, options: PublishOptions): Promise<void> {
  const change = changeOf(row);
  const adapter = reviewedAction(ctx, change.collection, change.action);
  const [{ actor: author, role: authorRole }, states] = await Promise.all([authorOf(ctx, row), changeStates(ctx, change)]);
  const { published, proposed } = states;
  const { publisher } = options;
  const label = collectionLabel(change.collection);
  const now = nowIso();
  // What the reviewer saw is kept at the approval or a publish without review; an approved
  // change keeps its approval's, and one approved before they were kept keeps these.
  const decided =
    options.approve || options.breakGlassReason || row.decided === null
      ? decidedJson(change, options.breakGlassReason ? 'publishedWithoutReview' : 'approved', now, states)
      : row.decided;
  const entry = { collection: change.collection, documentId: change.recordId, documentName: row.recordName };
  let created: string | void;
  try {
    // One command, by the author: the change's move and its entries, then the collection's own save in it.
    created = await runCommand(ctx, author, async (trx, cmd) => {
      const moved = await repo.transition(trx, row.id, options.from, {
        state: 'published',
        publishedAt: now,
        publishedBy: publisher.id,
        publishError: null,
        scheduledAt: null,
        ...(options.approve ? { reviewerId: publisher.id, reviewedAt: now, comment: options.approve.comment } : {}),
        ...(options.breakGlassReason ? { breakGlassReason: options.breakGlassReason } : {}),
        decided,
      });
      if (!moved) throw new ChangeMoved();
      await repo.release(trx, row.id);
      if (options.approve) {
        await writeAudit(trx, publisher, {
          ...entry,
          action: 'APPROVE',
          description: `Approved the change to ${label} "${row.recordName}"`,
          changes: { before: { state: row.state }, after: { state: 'approved', comment: options.approve.comment } },
          details: { changeId: row.id },
        });
      }
      await writeAudit(trx, publisher, {
        ...entry,
        action: 'PUBLISH',
        description:
          `${options.breakGlassReason ? 'Published without review' : 'Published'}: ` +
          `${REVIEW_TEXTS.actions[change.action].toLowerCase()} ${label} "${row.recordName}"`,
        changes: { before: auditView(published?.snapshot ?? null), after: row.summary ? JSON.parse(row.summary) : auditView(proposed) },
        details: {
          changeId: row.id,
          author: author.fullname,
          reviewAction: change.action,
          ...(options.breakGlassReason ? { breakGlassReason: options.breakGlassReason } : {}),
        },
      });
      cmd.publish({ topic: REVIEW_TOPIC, id: row.id, op: 'update' });
      return adapter.apply(inCommand(ctx, { trx, cmd }), change, author, authorRole);
    });
  } catch (err) {
    if (err instanceof ChangeMoved) fail('CONFLICT', REVIEW_TEXTS.errors.moved, undefined, { changeId: row.id, moved: true });
    if (err instanceof AppError && err.code === 'VERSION_CONFLICT')
      fail('CONFLICT', REVIEW_TEXTS.errors.baseMoved, undefined, { changeId: row.id, rebase: true });
    throw err;
  }
  // A new record's change names it once it exists: its view shows the change, and the reason of a publish without review.
  if (typeof created === 'string' && change.recordId === null) await repo.nameRecord(ctx.db, row.id, created);
}

/**
 * The scheduled publishes that are due, each published once whichever instance gets there
 * first. One the record refuses (it moved, a value left its list) becomes `failed`, and its
 * author is told; an outage leaves it approved for the next run.
 */
export async function publishDue(ctx: AppContext): Promise<number> {
  let published = 0;
  for (const row of await repo.due(ctx.db, nowIso(), 20)) {
    const by = row.scheduledBy ? await repo.accountEmail(ctx.db, row.scheduledBy) : undefined;
    const publisher: Actor = row.scheduledBy && by ? { id: row.scheduledBy, fullname: by.fullname, email: by.email } : SYSTEM_ACTOR;
    try {
      await publishChange(ctx, row, { publisher, from: { states: ['approved'], version: Number(row.version) } });
      published += 1;
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) {
        // An outage or a fault of this change: logged, and tried again at the next run; the others go on.
        ctx.log.error({ err, changeId: row.id }, 'scheduled publish failed');
        continue;
      }
      if (err.extra?.moved === true) continue;
      await markFailed(ctx, row, publisher, err.message);
    }
  }
  return published;
}

async function markFailed(ctx: AppContext, row: ChangeRow, publisher: Actor, error: string): Promise<void> {
  const change = changeOf(row);
  const moved = await runCommand(ctx, publisher, async (trx, cmd) => {
    if (
      !(await repo.transition(
        trx,
        row.id,
        { states: ['approved'], version: Number(row.version) },
        { state: 'failed', publishError: error, scheduledAt: null },
      ))
    )
      return false;
    await cmd.audit({
      collection: change.collection,
      documentId: change.recordId,
      documentName: row.recordName,
      action: 'UNPUBLISH',
      description: `The scheduled publish of ${collectionLabel(change.collection)} "${row.recordName}" was refused: ${error}`,
      changes: { before: { state: 'approved', scheduledAt: row.scheduledAt }, after: { state: 'failed' } },
      details: { changeId: row.id },
    });
    cmd.publish({ topic: REVIEW_TOPIC, id: row.id, op: 'update' });
    return true;
  });
  if (moved) notifyAuthor(ctx, { ...change, recordName: row.recordName, authorId: row.authorId }, 'failed', { error });
}
