import { manilaDateTime } from '../../../../common/manila-time.js';
import { can } from '../../../../common/permissions.js';
import { OPEN_REVIEW_STATES, REVIEW_LIMITS, REVIEW_TEXTS, type ReviewState } from '../../../../common/review.js';
import type { AppContext, AuthContext } from '../../../platform/http/context.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { nowIso } from '../../../platform/support/clock.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { AuditAction } from '../../../platform/writes/audit.js';
import { versionsRecords } from '../versions/index.js';
import { reviewedAction } from './adapters.js';
import { notifyAuthor, notifyReviewers } from './notify.js';
import { changeOf, collectionLabel } from './presenter.js';
import { publishChange } from './publishing.js';
import { reviewRepository as repo, type ChangeRow } from './repository.js';
import { changeStates, decidedJson } from './states.js';
import { REVIEW_TOPIC } from './topic.js';

const E = REVIEW_TEXTS.errors;
const DAY_MS = 86_400_000;

function assertState(row: ChangeRow, states: readonly string[], version: number): void {
  if (!states.includes(row.state)) fail('CONFLICT', E.wrongState(REVIEW_TEXTS.states[row.state as ReviewState] ?? row.state));
  if (Number(row.version) !== version) fail('CONFLICT', E.moved);
}

function scheduleTime(publishAt: string): string {
  const at = new Date(publishAt).getTime();
  if (at <= Date.now()) invalid({ publishAt: E.scheduleInPast });
  if (at > Date.now() + REVIEW_LIMITS.maxScheduleDays * DAY_MS) invalid({ publishAt: E.scheduleTooFar });
  return new Date(at).toISOString();
}

/** What reviewers and authors do with a change: each a move from the state and version they read. */
export function createReviewDecisions(ctx: AppContext, load: (id: string) => Promise<ChangeRow>) {
  /** One state change with its audit entry; 409 when another request moved the change first. */
  async function move(
    row: ChangeRow,
    auth: AuthContext,
    from: readonly ReviewState[],
    set: Partial<ChangeRow>,
    audit: { action: AuditAction; description: string; before: unknown; after: unknown },
  ): Promise<void> {
    await runCommand(ctx, auth.actor, async (trx, cmd) => {
      if (!(await repo.transition(trx, row.id, { states: from, version: Number(row.version) }, set))) fail('CONFLICT', E.moved);
      if (set.state === 'withdrawn') await repo.release(trx, row.id);
      await cmd.audit({
        action: audit.action,
        collection: row.collection,
        documentId: row.recordId,
        documentName: row.recordName,
        description: audit.description,
        changes: { before: audit.before, after: audit.after },
        details: { changeId: row.id },
      });
      cmd.publish({ topic: REVIEW_TOPIC, id: row.id, op: 'update' });
    });
  }

  const label = (row: ChangeRow) => `${collectionLabel(changeOf(row).collection)} "${row.recordName}"`;
  const forAuthor = (row: ChangeRow) => ({ ...changeOf(row), recordName: row.recordName, authorId: row.authorId });

  return {
    /** Approve: published now, or at its scheduled time. Never by its author. */
    async approve(
      id: string,
      input: { version: number; comment?: string | undefined; publishAt?: string | undefined },
      auth: AuthContext,
    ): Promise<void> {
      const row = await load(id);
      if (row.authorId === auth.user.id) fail('FORBIDDEN', E.selfApprove);
      assertState(row, ['pending'], input.version);
      const comment = input.comment || null;
      if (input.publishAt) {
        const scheduledAt = scheduleTime(input.publishAt);
        const now = nowIso();
        const decided = decidedJson(changeOf(row), 'approved', now, await changeStates(ctx, changeOf(row)));
        await runCommand(ctx, auth.actor, async (trx, cmd) => {
          if (
            !(await repo.transition(
              trx,
              row.id,
              { states: ['pending'], version: input.version },
              { state: 'approved', reviewerId: auth.user.id, reviewedAt: now, comment, scheduledAt, scheduledBy: auth.user.id, decided },
            ))
          )
            fail('CONFLICT', E.moved);
          const entry = {
            collection: row.collection,
            documentId: row.recordId,
            documentName: row.recordName,
            details: { changeId: row.id },
          };
          await cmd.audit({
            ...entry,
            action: 'APPROVE',
            description: `Approved the change to ${label(row)}`,
            changes: { before: { state: 'pending' }, after: { state: 'approved', comment } },
          });
          await cmd.audit({
            ...entry,
            action: 'SCHEDULE',
            description: `Scheduled the change to ${label(row)} to publish on ${manilaDateTime(new Date(scheduledAt))} (Manila time)`,
            changes: { before: { scheduledAt: null }, after: { scheduledAt } },
          });
          cmd.publish({ topic: REVIEW_TOPIC, id: row.id, op: 'update' });
        });
        notifyAuthor(ctx, forAuthor(row), 'approved', { by: auth.actor.fullname, comment, scheduledAt });
        return;
      }
      await publishChange(ctx, row, { publisher: auth.actor, from: { states: ['pending'], version: input.version }, approve: { comment } });
      notifyAuthor(ctx, forAuthor(row), 'approved', { by: auth.actor.fullname, comment });
    },

    async reject(id: string, input: { version: number; comment: string }, auth: AuthContext): Promise<void> {
      const row = await load(id);
      if (row.authorId === auth.user.id) fail('FORBIDDEN', E.selfApprove);
      assertState(row, ['pending', 'approved'], input.version);
      const now = nowIso();
      const decided = decidedJson(changeOf(row), 'rejected', now, await changeStates(ctx, changeOf(row)));
      await move(
        row,
        auth,
        ['pending', 'approved'],
        {
          state: 'rejected',
          reviewerId: auth.user.id,
          reviewedAt: now,
          comment: input.comment,
          scheduledAt: null,
          scheduledBy: null,
          decided,
        },
        {
          action: 'REJECT',
          description: `Asked for changes to ${label(row)}: ${input.comment}`,
          before: { state: row.state },
          after: { state: 'rejected', comment: input.comment },
        },
      );
      notifyAuthor(ctx, forAuthor(row), 'rejected', { by: auth.actor.fullname, comment: input.comment });
    },

    /** An approved change now; a change not approved only with break glass and a written reason. */
    async publish(id: string, input: { version: number; reason?: string | undefined }, auth: AuthContext): Promise<void> {
      const row = await load(id);
      if (row.state === 'approved') {
        if (row.authorId !== auth.user.id && !can(auth.role, 'review.approve')) fail('FORBIDDEN');
        assertState(row, ['approved'], input.version);
        await publishChange(ctx, row, { publisher: auth.actor, from: { states: ['approved'], version: input.version } });
        return;
      }
      if (!can(auth.role, 'review.breakGlass')) fail('FORBIDDEN');
      const reason = input.reason ?? '';
      if (reason.length < REVIEW_LIMITS.minReasonLength) invalid({ reason: E.reasonRequired });
      const from = ['pending', 'rejected', 'failed'] as const;
      assertState(row, from, input.version);
      await publishChange(ctx, row, { publisher: auth.actor, from: { states: from, version: input.version }, breakGlassReason: reason });
    },

    /** Sets or cancels an approved change's publish time. */
    async schedule(id: string, input: { version: number; publishAt: string | null }, auth: AuthContext): Promise<void> {
      const row = await load(id);
      assertState(row, ['approved'], input.version);
      const scheduledAt = input.publishAt === null ? null : scheduleTime(input.publishAt);
      await move(
        row,
        auth,
        ['approved'],
        { scheduledAt, scheduledBy: scheduledAt ? auth.user.id : null },
        scheduledAt
          ? {
              action: 'SCHEDULE',
              description: `Scheduled the change to ${label(row)} to publish on ${manilaDateTime(new Date(scheduledAt))} (Manila time)`,
              before: { scheduledAt: row.scheduledAt },
              after: { scheduledAt },
            }
          : {
              action: 'UNPUBLISH',
              description: `Cancelled the scheduled publish of ${label(row)}`,
              before: { scheduledAt: row.scheduledAt },
              after: { scheduledAt: null },
            },
      );
    },

    /**
     * The change is closed and the record freed; it stays as published. Its author, or a
     * reviewer (a change sent back to an author who left must not hold its record for good).
     */
    async withdraw(id: string, input: { version: number }, auth: AuthContext): Promise<void> {
      const row = await load(id);
      if (row.authorId !== auth.user.id && !can(auth.role, 'review.approve')) fail('FORBIDDEN', E.notAuthor);
      assertState(row, OPEN_REVIEW_STATES, input.version);
      await move(
        row,
        auth,
        OPEN_REVIEW_STATES,
        { state: 'withdrawn', scheduledAt: null },
        {
          action: 'UNPUBLISH',
          description: `${row.authorId === auth.user.id ? 'Withdrew' : 'Closed'} the change to ${label(row)}`,
          before: { state: row.state },
          after: { state: 'withdrawn' },
        },
      );
    },

    /**
     * The change is based again on the record as published now (it changed since): it keeps what
     * it proposes and waits for review again, so a reviewer sees it against the current state.
     */
    async rebase(id: string, input: { version: number }, auth: AuthContext): Promise<void> {
      const row = await load(id);
      if (row.authorId !== auth.user.id && !can(auth.role, 'review.approve')) fail('FORBIDDEN');
      const from = ['pending', 'approved', 'rejected', 'failed'] as const;
      assertState(row, from, input.version);
      const change = changeOf(row);
      const adapter = reviewedAction(ctx, change.collection, change.action);
      let set: Partial<ChangeRow>;
      if (adapter.rebase) {
        const proposal = await adapter.rebase(ctx, change);
        set = {
          baseVersion: proposal.baseVersion,
          input: JSON.stringify(proposal.input),
          summary: proposal.summary ? JSON.stringify(proposal.summary) : row.summary,
          recordName: proposal.recordName,
        };
      } else {
        if (!row.recordId || row.baseVersion === null) fail('CONFLICT', E.wrongState(REVIEW_TEXTS.states[row.state as ReviewState]));
        const current = await versionsRecords.liveRecordVersion(ctx.db, change.collection, row.recordId);
        if (current === undefined) fail('NOT_FOUND');
        set = { baseVersion: current };
      }
      await move(
        row,
        auth,
        from,
        {
          ...set,
          state: 'pending',
          reviewerId: null,
          reviewedAt: null,
          scheduledAt: null,
          scheduledBy: null,
          publishError: null,
          decided: null,
          submittedAt: nowIso(),
        },
        {
          action: 'SUBMIT',
          description: `Rebased the change to ${label(row)} on the published version and sent it for review again`,
          before: { baseVersion: row.baseVersion, state: row.state },
          after: { baseVersion: set.baseVersion ?? null, state: 'pending' },
        },
      );
      notifyReviewers(ctx, { ...changeOf(row), recordName: row.recordName, authorId: row.authorId, authorName: auth.actor.fullname });
    },
  };
}
