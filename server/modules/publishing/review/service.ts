import type { Transaction } from 'kysely';
import { can, type Role } from '../../../../common/permissions.js';
import {
  isFileAction,
  OPEN_REVIEW_STATES,
  REVIEW_COLLECTIONS,
  REVIEW_LIMITS,
  REVIEW_TEXTS,
  type ReviewAction,
  type ReviewCollection,
} from '../../../../common/review.js';
import type {
  PendingChange,
  PendingChangeDetail,
  ReviewCount,
  ReviewList,
  ReviewListQuery,
  ReviewNext,
  ReviewSettings,
} from '../../../../common/schemas/review.js';
import { isUniqueViolation } from '../../../db/dialect.js';
import type { Database } from '../../../db/types.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { AppError, fail } from '../../../platform/http/errors.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand, type Command } from '../../../platform/writes/command.js';
import type { ReviewProposal, ReviewSubmission } from '../../../platform/writes/review-gate.js';
import { createVersionsService } from '../versions/index.js';
import { reviewedAction, reviewedCollections } from './adapters.js';
import { notifyReviewers } from './notify.js';
import { changeOf, collectionLabel, namedAccounts, presentChange } from './presenter.js';
import { reviewRepository as repo, type ChangeRow } from './repository.js';
import { auditView, parseDecided, publishedState } from './states.js';
import { REVIEW_TOPIC } from './topic.js';

function cursorOf(row: ChangeRow): string {
  return Buffer.from(JSON.stringify([row.submittedAt, row.id])).toString('base64url');
}

function parseCursor(cursor: string | undefined): { submittedAt: string; id: string } | undefined {
  if (!cursor) return undefined;
  try {
    const [submittedAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof submittedAt === 'string' && typeof id === 'string') return { submittedAt, id };
  } catch {
    /* a cursor this server did not write */
  }
  fail('VALIDATION_FAILED', undefined, { after: 'Unknown page.' });
}

/** The queue, the settings, and a save taken as a pending change. */
export function createReviewService(ctx: AppContext) {
  const { db } = ctx;
  const versions = createVersionsService(ctx);

  async function present(rows: ChangeRow[]): Promise<PendingChange[]> {
    const names = await repo.accountNames(db, namedAccounts(rows));
    return rows.map((row) => presentChange(row, names));
  }

  async function load(id: string): Promise<ChangeRow> {
    const row = await repo.find(db, id);
    if (!row) fail('NOT_FOUND', REVIEW_TEXTS.errors.notFound);
    return row;
  }

  /** What a submission's audit entry shows: the published state and the proposed one, read before its transaction. */
  async function prepare(item: ReviewSubmission) {
    const draft = {
      id: newId(),
      collection: item.collection,
      action: item.action,
      recordId: item.proposal.recordId,
      baseVersion: item.proposal.baseVersion,
      input: item.proposal.input,
    };
    const adapter = reviewedAction(ctx, item.collection, item.action);
    const [published, proposed] = await Promise.all([
      publishedState(ctx, db, draft),
      isFileAction(item.action) ? null : adapter.proposed(ctx, draft),
    ]);
    return { item, draft, adapter, published, proposed };
  }

  /**
   * A change kept as pending in the caller's transaction. The author's own open change of the
   * record is replaced (an edit after a rejection is its resubmission); another author's open
   * change refuses it.
   */
  async function submitIn(
    trx: Transaction<Database>,
    cmd: Command,
    p: Awaited<ReturnType<typeof prepare>>,
    auth: AuthContext,
  ): Promise<string> {
    const { actor } = auth;
    const {
      item: { collection, action, proposal },
      draft,
      adapter,
      published,
      proposed,
    } = p;
    const now = nowIso();
    const open = proposal.recordId ? await repo.openOfRecord(trx, collection, proposal.recordId) : undefined;
    const held = proposal.touches?.length ? await repo.openAmong(trx, collection, proposal.touches) : [];
    if (held[0])
      fail(
        'CONFLICT',
        REVIEW_TEXTS.errors.heldByOther((await repo.accountNames(trx, [held[0].authorId])).get(held[0].authorId) ?? ''),
        undefined,
        { changeId: held[0].id, recordName: held[0].recordName },
      );
    if (open && open.authorId !== actor.id) {
      const names = await repo.accountNames(trx, [open.authorId]);
      fail('CONFLICT', REVIEW_TEXTS.errors.heldByOther(names.get(open.authorId) ?? ''), undefined, { changeId: open.id });
    }
    const fields = {
      action,
      recordName: proposal.recordName,
      baseVersion: proposal.baseVersion,
      input: JSON.stringify(proposal.input),
      summary: proposal.summary ? JSON.stringify(proposal.summary) : null,
      state: 'pending',
      submittedAt: now,
      reviewerId: null,
      reviewedAt: null,
      scheduledAt: null,
      scheduledBy: null,
      publishError: null,
      decided: null,
      authorRole: auth.role,
    };
    const changeId = open?.id ?? draft.id;
    // The open change as read: a publish or withdrawal that moved it first makes this a 409, never a lost edit.
    if (open && !(await repo.transition(trx, open.id, { states: OPEN_REVIEW_STATES, version: Number(open.version) }, fields)))
      fail('CONFLICT', REVIEW_TEXTS.errors.moved);
    if (!open)
      await repo.insert(trx, {
        id: changeId,
        collection,
        recordId: proposal.recordId,
        authorId: actor.id,
        createdAt: now,
        version: 1,
        ...fields,
      });
    await repo.hold(trx, changeId, proposal.photoIds ?? []);
    await adapter.submitted?.(trx, { ...draft, id: changeId }, actor);
    await cmd.audit({
      action: 'SUBMIT',
      collection,
      documentId: proposal.recordId,
      documentName: proposal.recordName,
      description:
        `Sent for review: ${REVIEW_TEXTS.actions[action].toLowerCase()} ${collectionLabel(collection)} ` +
        `"${proposal.recordName}"${open ? ' (resubmitted)' : ''}`,
      changes: { before: auditView(published?.snapshot ?? null), after: proposal.summary ?? auditView(proposed) },
      details: { changeId, reviewAction: action, baseVersion: proposal.baseVersion, ...(open ? { resubmitted: true } : {}) },
    });
    cmd.publish({ topic: REVIEW_TOPIC, id: changeId, op: open ? 'update' : 'create' });
    cmd.afterCommit(() => {
      notifyReviewers(ctx, {
        id: changeId,
        collection,
        action,
        recordName: proposal.recordName,
        authorId: actor.id,
        authorName: actor.fullname,
      });
    });
    return changeId;
  }

  /** Several changes and the request's other writes (`alongside`) in one transaction: all of it is saved, or none. */
  async function submitMany<T>(
    items: readonly ReviewSubmission[],
    auth: AuthContext,
    alongside: (trx: Transaction<Database>, cmd: Command) => Promise<T>,
  ): Promise<{ changes: Array<{ id: string; collection: string }>; result: T }> {
    return submitWhere(
      items,
      auth,
      async () => true,
      (trx, cmd) => alongside(trx, cmd),
    );
  }

  /**
   * As submitMany, but which items' collections need review is read inside the transaction (the
   * setting's row held until it commits): only those become pending changes, and `alongside`
   * is told the collections of the others, to write them itself.
   */
  async function submitWhereReviewed<T>(
    items: readonly ReviewSubmission[],
    auth: AuthContext,
    alongside: (trx: Transaction<Database>, cmd: Command, unreviewed: string[]) => Promise<T>,
  ): Promise<{ changes: Array<{ id: string; collection: string }>; result: T }> {
    return submitWhere(items, auth, (trx, collection) => repo.isEnabledHeld(trx, collection), alongside);
  }

  async function submitWhere<T>(
    items: readonly ReviewSubmission[],
    auth: AuthContext,
    reviewed: (trx: Transaction<Database>, collection: string) => Promise<boolean>,
    alongside: (trx: Transaction<Database>, cmd: Command, unreviewed: string[]) => Promise<T>,
  ): Promise<{ changes: Array<{ id: string; collection: string }>; result: T }> {
    const prepared = await Promise.all(items.map((item) => prepare(item)));
    return runCommand(ctx, auth.actor, async (trx, cmd) => {
      const changes = [];
      const unreviewed: string[] = [];
      for (const p of prepared) {
        if (!(await reviewed(trx, p.item.collection))) {
          unreviewed.push(p.item.collection);
          continue;
        }
        // Another open change of the record inserted meanwhile (the one-open-change index).
        const id = await submitIn(trx, cmd, p, auth).catch((err: unknown) => {
          if (!(err instanceof AppError) && isUniqueViolation(err)) fail('CONFLICT', REVIEW_TEXTS.errors.heldByOther(''));
          throw err;
        });
        changes.push({ id, collection: p.item.collection });
      }
      return { changes, result: await alongside(trx, cmd, unreviewed) };
    });
  }

  return {
    load,
    present: async (row: ChangeRow) => (await present([row]))[0]!,

    async settings(): Promise<ReviewSettings> {
      const rows = new Map((await repo.settings(db)).map((r) => [r.collection, r]));
      return {
        items: REVIEW_COLLECTIONS.map((collection) => {
          const row = rows.get(collection);
          return {
            collection,
            label: collectionLabel(collection),
            enabled: Number(row?.enabled ?? 0) === 1,
            updatedAt: row?.updatedAt ?? null,
            updatedByName: row?.updatedByName ?? null,
          };
        }),
      };
    },

    async setSetting(collection: ReviewCollection, enabled: boolean, actor: Actor): Promise<ReviewSettings> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const before = await repo.setEnabled(trx, collection, enabled, actor.id, nowIso());
        if (before === enabled) return;
        const label = collectionLabel(collection);
        await cmd.audit({
          action: 'UPDATE',
          collection: 'review_settings',
          documentId: collection,
          documentName: label,
          description: enabled ? REVIEW_TEXTS.settingOn(label) : REVIEW_TEXTS.settingOff(label),
          changes: { before: { reviewRequired: before }, after: { reviewRequired: enabled } },
        });
        cmd.publish({ topic: REVIEW_TOPIC, op: 'settings' });
      });
      return this.settings();
    },

    isEnabled: (collection: ReviewCollection) => repo.isEnabled(db, collection),

    /** A route's save taken as a pending change. */
    async submit(collection: ReviewCollection, action: ReviewAction, proposal: ReviewProposal, auth: AuthContext): Promise<PendingChange> {
      const { changes } = await submitMany([{ collection, action, proposal }], auth, async () => undefined);
      return present([await load(changes[0]!.id)]).then((list) => list[0]!);
    },

    submitMany,
    submitWhereReviewed,

    async list(query: ReviewListQuery, auth: AuthContext): Promise<ReviewList> {
      const states = query.state === 'all' ? null : query.state === 'open' ? OPEN_REVIEW_STATES : [query.state];
      const filter = {
        states,
        collection: query.collection,
        recordId: query.recordId,
        authorId: query.mine === 'true' ? auth.user.id : undefined,
      };
      const rows = await repo.list(db, { ...filter, after: parseCursor(query.after), limit: query.limit + 1 });
      const page = rows.slice(0, query.limit);
      const total = await repo.count(db, filter);
      return { items: await present(page), next: rows.length > query.limit ? cursorOf(page[page.length - 1]!) : null, total };
    },

    async count(auth: AuthContext): Promise<ReviewCount> {
      const [pending, forMe, returned] = await Promise.all([
        repo.count(db, { states: ['pending'] }),
        can(auth.role, 'review.approve') ? repo.count(db, { states: ['pending'], notAuthorId: auth.user.id }) : Promise.resolve(0),
        repo.count(db, { states: ['rejected', 'failed'], authorId: auth.user.id }),
      ]);
      return { pending, forMe, returned };
    },

    /**
     * The change a reviewer decides after `after`: the next one waiting in the queue's order that
     * they did not send and may open, else the first such from the start; null when none is left.
     */
    async next(after: string, auth: AuthContext): Promise<ReviewNext> {
      const from = await repo.find(db, after);
      const filter = {
        notAuthorId: auth.user.id,
        except: after,
        // A restore shows a deleted record whole: only for those who may see the trash (as detail).
        skipActions: can(auth.role, 'trash.view') ? [] : ['restore'],
      };
      const row =
        (from ? await repo.nextPending(db, { ...filter, after: { submittedAt: from.submittedAt, id: from.id } }) : undefined) ??
        (await repo.nextPending(db, filter));
      return { next: row ? { id: row.id, recordName: row.recordName } : null };
    },

    async detail(id: string, auth: AuthContext): Promise<PendingChangeDetail> {
      const row = await load(id);
      // A restore shows a deleted record whole: for those who may see the trash.
      if (row.action === 'restore' && !can(auth.role, 'trash.view')) fail('FORBIDDEN');
      const change = changeOf(row);
      const file = isFileAction(change.action);
      const adapter = reviewedAction(ctx, change.collection, change.action);
      const rows = adapter.rows?.(change);
      // A decided change is shown as it was decided: the states its reviewer saw, not the record now.
      const kept = file ? null : parseDecided(row.decided);
      const [published, proposed] = await Promise.all([
        publishedState(ctx, db, change),
        file || kept ? null : adapter.proposed(ctx, change),
      ]);
      const decided: PendingChangeDetail['decided'] = kept
        ? { decision: kept.decision, at: kept.at, kept: true }
        : !file && row.state === 'published'
          ? {
              decision: row.breakGlassReason ? 'publishedWithoutReview' : 'approved',
              at: row.publishedAt ?? row.submittedAt,
              kept: false,
            }
          : null;
      const states = kept ? { before: kept.before, after: kept.after } : { before: published?.snapshot ?? null, after: proposed };
      // A change published before its states were kept has nothing to compare: the record now is both sides.
      const compared = !file && decided?.kept !== false;
      const comparison = compared ? await versions.compareStates(change.collection, change.recordId, states.before, states.after) : null;
      const preview = reviewedCollections(ctx).get(change.collection)?.preview;
      const previews =
        preview && compared
          ? {
              published: states.before ? await preview(ctx, change.recordId, states.before) : null,
              proposed: states.after ? await preview(ctx, change.recordId, states.after) : null,
            }
          : null;
      return {
        change: (await present([row]))[0]!,
        decided,
        publishedVersion: published?.version ?? null,
        comparison,
        preview: previews,
        importRows: rows ? rows.slice(0, REVIEW_LIMITS.importRowsShown) : null,
        importRowCount: rows ? rows.length : null,
        can: permissionsOn(row, auth.user.id, auth.role),
      };
    },
  };
}

/** What the account may do with the change in its state (the routes check the same). */
export function permissionsOn(row: ChangeRow, accountId: string, role: Role): PendingChangeDetail['can'] {
  const own = row.authorId === accountId;
  const reviewer = can(role, 'review.approve');
  const { state } = row;
  return {
    approve: reviewer && !own && state === 'pending',
    reject: reviewer && !own && (state === 'pending' || state === 'approved'),
    publish: (reviewer || own) && state === 'approved',
    breakGlass: can(role, 'review.breakGlass') && (state === 'pending' || state === 'rejected' || state === 'failed'),
    withdraw: (own || reviewer) && (OPEN_REVIEW_STATES as readonly string[]).includes(state),
    rebase:
      (own || reviewer) &&
      (state === 'failed' || state === 'pending' || state === 'approved' || state === 'rejected') &&
      (row.baseVersion !== null || isFileAction(row.action)),
    schedule: reviewer && state === 'approved',
    editable: own && (OPEN_REVIEW_STATES as readonly string[]).includes(state),
  };
}
