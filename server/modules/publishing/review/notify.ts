import { ROLES, can } from '../../../../common/permissions.js';
import { REVIEW_TEXTS, type ReviewAction, type ReviewCollection } from '../../../../common/review.js';
import { manilaDateTime } from '../../../../common/manila-time.js';
import { linkOrigin } from '../../../config.js';
import type { AppContext } from '../../../platform/http/context.js';
import { mailerFor } from '../../../platform/support/mail.js';
import { collectionLabel } from './presenter.js';
import { reviewRepository as repo } from './repository.js';

const REVIEWER_ROLES = ROLES.filter((role) => can(role, 'review.approve'));

function what(change: { collection: ReviewCollection; action: ReviewAction; recordName: string }): string {
  return `${REVIEW_TEXTS.actions[change.action]}: ${collectionLabel(change.collection)} "${change.recordName}"`;
}

function link(ctx: AppContext, id: string): string {
  return `${linkOrigin(ctx.config)}/dashboard/review/${id}`;
}

/** Sends one message; a mail failure is logged, never the change's failure. */
function send(ctx: AppContext, to: string, subject: string, text: string): void {
  mailerFor(ctx)
    .send({ to, subject, text })
    .catch((err: unknown) => ctx.log.error({ err }, 'review notice could not be sent'));
}

/** Every reviewer but the author hears of a new or resubmitted change (email, or the outbox without SMTP). */
export function notifyReviewers(
  ctx: AppContext,
  change: { id: string; collection: ReviewCollection; action: ReviewAction; recordName: string; authorId: string; authorName: string },
): void {
  void repo
    .reviewers(ctx.db, REVIEWER_ROLES, change.authorId)
    .then((reviewers) => {
      for (const r of reviewers) {
        if (!r.email) continue;
        send(
          ctx,
          r.email,
          REVIEW_TEXTS.email.submittedSubject(what(change)),
          [
            `Hello ${r.fullname},`,
            '',
            `${change.authorName} sent a change for review: ${what(change)}.`,
            'The farmer app keeps the published version until a reviewer approves it.',
            '',
            `Review it: ${link(ctx, change.id)}`,
          ].join('\n'),
        );
      }
    })
    .catch((err: unknown) => ctx.log.error({ err }, 'review notice could not be sent'));
}

/** The author hears that their change was approved, sent back, or could not be published. */
export function notifyAuthor(
  ctx: AppContext,
  change: { id: string; collection: ReviewCollection; action: ReviewAction; recordName: string; authorId: string },
  outcome: 'approved' | 'rejected' | 'failed',
  detail: { by?: string; comment?: string | null; scheduledAt?: string | null; error?: string },
): void {
  void repo
    .accountEmail(ctx.db, change.authorId)
    .then((author) => {
      if (!author?.email) return;
      const subject =
        outcome === 'approved'
          ? REVIEW_TEXTS.email.approvedSubject(what(change))
          : outcome === 'rejected'
            ? REVIEW_TEXTS.email.rejectedSubject(what(change))
            : REVIEW_TEXTS.email.failedSubject(what(change));
      const lines = [`Hello ${author.fullname},`, ''];
      if (outcome === 'approved')
        lines.push(
          `${detail.by ?? 'A reviewer'} approved your change: ${what(change)}.`,
          detail.scheduledAt
            ? `It will be published on ${manilaDateTime(new Date(detail.scheduledAt))} (Manila time).`
            : 'The farmer app has it now.',
        );
      if (outcome === 'rejected') lines.push(`${detail.by ?? 'A reviewer'} asked for changes to: ${what(change)}.`);
      if (outcome === 'failed')
        lines.push(`Your change could not be published at its scheduled time: ${what(change)}.`, detail.error ?? '');
      if (detail.comment) lines.push('', `Comment: ${detail.comment}`);
      lines.push('', `Open it: ${link(ctx, change.id)}`);
      send(ctx, author.email, subject, lines.join('\n'));
    })
    .catch((err: unknown) => ctx.log.error({ err }, 'review notice could not be sent'));
}
