import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  AlertTriangle,
  CalendarClock,
  Check,
  ChevronDown,
  GitMerge,
  MessageSquareWarning,
  ShieldAlert,
  Undo2,
  XCircle,
} from 'lucide-react';
import { isFileAction, REVIEW_TEXTS } from '../../../common/review';
import { REVIEW_SCREEN } from '../../../common/review-screen-texts';
import {
  approveInputSchema,
  breakGlassFormSchema,
  rejectInputSchema,
  scheduleFormSchema,
  type ApproveInput,
  type PendingChangeDetail,
  type ReviewNext,
} from '../../../common/schemas/review';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { Dialog } from '../../components/ui/dialog';
import { TextField } from '../../components/ui/form';
import { TextAreaField } from '../../components/ui/more-fields';
import { useToast } from '../../components/ui/toast';
import { ApiError } from '../../lib/api';
import { nextChange, useReviewDecision, type ReviewDecision } from '../../lib/review';
import { DecisionDialog } from './decision-dialog';
import { inAnHour, recordPath } from './format';

type Open = 'approve' | 'schedule' | 'reject' | 'breakGlass' | 'withdraw' | null;
const commentSchema = approveInputSchema.pick({ comment: true });
const rejectSchema = rejectInputSchema.omit({ version: true });

/** What this account may do with the change now (the detail's `can`), each a decision on the version it read. */
export function DecisionPanel({ detail }: { detail: PendingChangeDetail }) {
  const { change, can } = detail;
  const version = change.version;
  const decide = useReviewDecision(change.id);
  const toast = useToast();
  const [open, setOpen] = useState<Open>(null);
  // A 409: the change moved since it was read (it is reloaded), or the record moved (rebase).
  const [refusal, setRefusal] = useState<{ message: string; rebase: boolean } | null>(null);
  const [moreOpen, setMoreOpen] = useState(false);
  const moreId = useId();
  const navigate = useNavigate();

  /** Makes the decision; false when it was refused as moved (its message then shows above the buttons). */
  async function run(decision: ReviewDecision, done: string | null): Promise<boolean> {
    setRefusal(null);
    try {
      await decide.mutateAsync(decision);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 409)) throw err;
      setOpen(null);
      setRefusal({ message: err.message, rebase: err.body?.rebase === true || err.message === REVIEW_TEXTS.errors.baseMoved });
      return false;
    }
    setOpen(null);
    if (done) toast.show(done);
    return true;
  }

  /** Approves, then opens the next change waiting for this reviewer, or the queue when none is left. */
  async function approveAndNext(body: ApproveInput): Promise<void> {
    if (!(await run({ action: 'approve', body }, null))) return;
    let next: ReviewNext['next'];
    try {
      ({ next } = await nextChange(change.id));
    } catch {
      toast.show(REVIEW_SCREEN.done.approve);
      return;
    }
    if (next) {
      toast.show(REVIEW_SCREEN.done.approveNext(next.recordName));
      void navigate(`/dashboard/review/${encodeURIComponent(next.id)}`);
    } else {
      toast.show(REVIEW_SCREEN.done.noneLeft);
      void navigate('/dashboard/review');
    }
  }
  // A decision made by a button alone: its refusal shows above the buttons.
  const now = (decision: ReviewDecision, done: string) => () => {
    void run(decision, done).catch((err: unknown) => setRefusal({ message: (err as Error).message, rebase: false }));
  };

  const baseMoved =
    refusal?.rebase === true ||
    change.state === 'failed' ||
    (change.baseVersion !== null && detail.publishedVersion !== null && detail.publishedVersion !== change.baseVersion);
  const busy = decide.isPending;
  const link = recordPath(change);
  // Approving at a time, publishing without review and closing another's change are behind "More actions": approving now is the decision offered.
  const closeInMore = can.withdraw && !can.editable && (can.approve || can.breakGlass);
  const more = can.approve || can.breakGlass;
  const withdrawButton = (
    <Button variant="ghost" onClick={() => setOpen('withdraw')} disabled={busy}>
      <Undo2 className="h-4 w-4" aria-hidden />
      {REVIEW_TEXTS.withdraw}
    </Button>
  );
  const anything =
    can.approve ||
    can.reject ||
    can.publish ||
    can.breakGlass ||
    can.withdraw ||
    (can.rebase && baseMoved) ||
    (can.schedule && change.scheduledAt);

  return (
    <section
      aria-labelledby="decision-title"
      className={cn(
        // A bar at the foot of the screen below 1280 px, the change above it; beside the change, in view, on a wide screen.
        anything && 'sticky bottom-0',
        'z-20 -mx-4 max-h-[60vh] space-y-3 overflow-y-auto border-t border-slate-200 bg-white px-4 py-3',
        'shadow-[0_-4px_12px_rgba(15,23,42,0.08)] lg:-mx-8 lg:px-8',
        'xl:sticky xl:bottom-auto xl:top-4 xl:mx-0 xl:max-h-none xl:space-y-4 xl:overflow-visible xl:rounded-2xl xl:border xl:p-5 xl:shadow-sm',
      )}
      data-testid="decision-bar"
    >
      <h2 id="decision-title" className="text-sm font-semibold text-slate-900 xl:text-lg">
        {REVIEW_SCREEN.actionsTitle}
      </h2>
      {refusal && (
        <div role="alert" className="space-y-2 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          <p className="flex gap-2">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
            {refusal.message}
          </p>
        </div>
      )}
      {can.rebase && baseMoved && (
        <div className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="rebase-box">
          <p>{REVIEW_SCREEN.rebaseHelp}</p>
          <Button onClick={now({ action: 'rebase', body: { version } }, REVIEW_SCREEN.done.rebase)} disabled={busy}>
            <GitMerge className="h-4 w-4" aria-hidden />
            {REVIEW_TEXTS.rebase}
          </Button>
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        {can.approve && (
          <Button onClick={() => setOpen('approve')} disabled={busy} className="max-sm:w-full">
            <Check className="h-4 w-4" aria-hidden />
            {REVIEW_TEXTS.approve}
          </Button>
        )}
        {can.publish && (
          <Button onClick={now({ action: 'publish', body: { version } }, REVIEW_SCREEN.done.publish)} disabled={busy}>
            <Check className="h-4 w-4" aria-hidden />
            {REVIEW_TEXTS.publishNow}
          </Button>
        )}
        {can.schedule && change.scheduledAt && (
          <Button
            variant="secondary"
            onClick={now({ action: 'schedule', body: { version, publishAt: null } }, REVIEW_SCREEN.done.unschedule)}
            disabled={busy}
          >
            <XCircle className="h-4 w-4" aria-hidden />
            {REVIEW_TEXTS.unschedule}
          </Button>
        )}
        {can.reject && (
          <Button variant="secondary" onClick={() => setOpen('reject')} disabled={busy}>
            <MessageSquareWarning className="h-4 w-4" aria-hidden />
            {REVIEW_TEXTS.reject}
          </Button>
        )}
        {can.withdraw && !closeInMore && withdrawButton}
        {more && (
          <Button
            variant="ghost"
            aria-expanded={moreOpen}
            aria-controls={moreId}
            onClick={() => setMoreOpen((o) => !o)}
            data-testid="more-actions"
          >
            <ChevronDown className={cn('h-4 w-4 transition-transform', moreOpen && 'rotate-180')} aria-hidden />
            {REVIEW_SCREEN.moreActions}
          </Button>
        )}
      </div>
      {more && moreOpen && (
        <div id={moreId} className="flex flex-wrap gap-2">
          {can.approve && (
            <Button variant="secondary" onClick={() => setOpen('schedule')} disabled={busy}>
              <CalendarClock className="h-4 w-4" aria-hidden />
              {REVIEW_TEXTS.approveSchedule}
            </Button>
          )}
          {closeInMore && withdrawButton}
          {can.breakGlass && (
            <div className="w-full space-y-2 rounded-lg border border-red-200 bg-red-50 px-4 py-3" data-testid="danger-zone">
              <h3 className="flex items-center gap-2 text-sm font-semibold text-red-900">
                <ShieldAlert className="h-4 w-4" aria-hidden />
                {REVIEW_SCREEN.dangerZone}
              </h3>
              <p className="text-sm text-red-900">{REVIEW_SCREEN.breakGlassHelp}</p>
              <Button variant="secondary" onClick={() => setOpen('breakGlass')} disabled={busy}>
                {REVIEW_TEXTS.breakGlass}
              </Button>
            </div>
          )}
        </div>
      )}
      {!anything && <p className="text-sm text-slate-600">{REVIEW_SCREEN.noActions}</p>}
      {can.editable && (
        <p className="text-sm text-slate-600">
          {isFileAction(change.action) ? REVIEW_SCREEN.authorHelpFile : REVIEW_SCREEN.authorHelp}
          {link && (
            <>
              {' '}
              <Link to={link} className="font-medium text-brand-800 underline underline-offset-2">
                {REVIEW_SCREEN.openRecord}
              </Link>
            </>
          )}
        </p>
      )}

      {open === 'approve' && (
        <DecisionDialog
          title={REVIEW_TEXTS.approve}
          schema={commentSchema}
          defaultValues={{ comment: '' }}
          confirm={REVIEW_SCREEN.confirmApprove}
          alternative={{
            label: REVIEW_SCREEN.confirmApproveNext,
            onSubmit: ({ comment }) => approveAndNext({ version, ...(comment ? { comment } : {}) }),
          }}
          onClose={() => setOpen(null)}
          onSubmit={({ comment }) =>
            run({ action: 'approve', body: { version, ...(comment ? { comment } : {}) } }, REVIEW_SCREEN.done.approve)
          }
        >
          <TextAreaField name="comment" label={REVIEW_SCREEN.commentOptional} />
        </DecisionDialog>
      )}
      {open === 'schedule' && (
        <DecisionDialog
          title={REVIEW_TEXTS.approveSchedule}
          schema={scheduleFormSchema}
          defaultValues={{ publishAt: inAnHour(), comment: '' }}
          confirm={REVIEW_SCREEN.confirmSchedule}
          onClose={() => setOpen(null)}
          onSubmit={({ publishAt, comment }) =>
            run({ action: 'approve', body: { version, publishAt, ...(comment ? { comment } : {}) } }, REVIEW_SCREEN.done.schedule)
          }
        >
          <p className="text-sm text-slate-600">{REVIEW_SCREEN.scheduleHelp}</p>
          <TextField name="publishAt" type="datetime-local" label={REVIEW_TEXTS.publishAt} />
          <TextAreaField name="comment" label={REVIEW_SCREEN.commentOptional} />
        </DecisionDialog>
      )}
      {open === 'reject' && (
        <DecisionDialog
          title={REVIEW_TEXTS.reject}
          schema={rejectSchema}
          defaultValues={{ comment: '' }}
          confirm={REVIEW_SCREEN.confirmReject}
          onClose={() => setOpen(null)}
          onSubmit={({ comment }) => run({ action: 'reject', body: { version, comment } }, REVIEW_SCREEN.done.reject)}
        >
          <TextAreaField name="comment" label={REVIEW_TEXTS.comment} rows={4} />
        </DecisionDialog>
      )}
      {open === 'breakGlass' && (
        <DecisionDialog
          title={REVIEW_TEXTS.breakGlass}
          schema={breakGlassFormSchema}
          defaultValues={{ reason: '' }}
          confirm={REVIEW_SCREEN.confirmBreakGlass}
          danger
          onClose={() => setOpen(null)}
          onSubmit={({ reason }) => run({ action: 'publish', body: { version, reason } }, REVIEW_SCREEN.done.publish)}
        >
          <p className="text-sm text-red-900">{REVIEW_SCREEN.breakGlassHelp}</p>
          <TextAreaField name="reason" label={REVIEW_TEXTS.reason} rows={3} />
        </DecisionDialog>
      )}
      <Dialog
        open={open === 'withdraw'}
        onOpenChange={(o) => {
          if (!o && !busy) setOpen(null);
        }}
        title={REVIEW_TEXTS.withdraw}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(null)} disabled={busy}>
              {REVIEW_SCREEN.cancel}
            </Button>
            <Button variant="danger" onClick={now({ action: 'withdraw', body: { version } }, REVIEW_SCREEN.done.withdraw)} disabled={busy}>
              {busy ? REVIEW_SCREEN.working : REVIEW_SCREEN.confirmWithdraw}
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-700">{REVIEW_SCREEN.withdrawText}</p>
      </Dialog>
    </section>
  );
}
