import { Link, useParams } from 'react-router';
import { AlertTriangle, ArrowLeft, MessageSquare, ShieldAlert } from 'lucide-react';
import { REVIEW_TEXTS } from '../../../common/review';
import { REVIEW_SCREEN } from '../../../common/review-screen-texts';
import type { PendingChangeDetail } from '../../../common/schemas/review';
import { VARIETY_LABELS } from '../../../common/varieties';
import { Spinner } from '../../components/ui/spinner';
import { TableFrame } from '../../components/ui/table-frame';
import { FieldComparison } from '../../components/versions/version-compare';
import { useReviewChange } from '../../lib/review';
import { AppPreview } from './app-preview';
import { DecisionPanel } from './decision-panel';
import { importStatus, importSummary, nameOf, when } from './format';
import { StateBadge } from './state-badge';
import { TranslationRows } from './translation-rows';

const COMPARISON_LABELS = {
  table: REVIEW_SCREEN.comparisonTable,
  from: REVIEW_TEXTS.published,
  to: REVIEW_TEXTS.proposed,
  photoCounts: REVIEW_SCREEN.photoCounts,
  photoHeading: 'h3' as const,
  words: REVIEW_SCREEN.words,
};
/** A decided change's sides: the record as published when it was decided, and the change. */
const DECIDED_LABELS = { ...COMPARISON_LABELS, table: REVIEW_SCREEN.decidedTable, from: REVIEW_SCREEN.publishedThen };

/**
 * What the change does, field by field: the published record now against the proposal, or,
 * once decided, the two as its reviewer saw them (the server sends those; a change decided
 * before they were kept says so).
 */
function Comparison({ detail }: { detail: PendingChangeDetail }) {
  const { decided, comparison } = detail;
  if (!comparison && decided?.kept !== false) return null;
  return (
    <section aria-labelledby="comparison-title" className="space-y-3">
      <h2 id="comparison-title" className="text-lg font-semibold text-slate-900">
        {decided ? REVIEW_SCREEN.decidedTitle[decided.decision] : REVIEW_SCREEN.comparisonTitle}
      </h2>
      {decided && (
        <p className="text-sm text-slate-600">
          {decided.kept ? REVIEW_SCREEN.decidedHelp(when(decided.at)) : REVIEW_SCREEN.decidedNotKept}
        </p>
      )}
      {comparison && (
        <FieldComparison fields={comparison.fields} photos={comparison.photos} labels={decided ? DECIDED_LABELS : COMPARISON_LABELS} />
      )}
    </section>
  );
}

function Note({
  tone,
  icon: Icon,
  label,
  text,
  testId,
}: {
  tone: 'slate' | 'red' | 'amber';
  icon: typeof MessageSquare;
  label: string;
  text: string;
  testId: string;
}) {
  const tones = {
    slate: 'border-slate-200 bg-slate-50 text-slate-800',
    red: 'border-red-200 bg-red-50 text-red-900',
    amber: 'border-amber-200 bg-amber-50 text-amber-900',
  };
  return (
    <div className={`flex gap-2 rounded-lg border px-4 py-3 text-sm ${tones[tone]}`} data-testid={testId}>
      <Icon className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
      <p>
        <span className="font-semibold">{label}</span> <span className="whitespace-pre-line">{text}</span>
      </p>
    </div>
  );
}

function Header({ detail }: { detail: PendingChangeDetail }) {
  const { change } = detail;
  const lines = [
    REVIEW_SCREEN.sent(nameOf(change.author), when(change.submittedAt)),
    change.reviewer && change.reviewedAt ? REVIEW_SCREEN.reviewed(nameOf(change.reviewer), when(change.reviewedAt)) : null,
    change.publishedAt ? REVIEW_SCREEN.publishedBy(nameOf(change.publishedBy), when(change.publishedAt)) : null,
    change.scheduledAt ? REVIEW_SCREEN.scheduledFor(when(change.scheduledAt)) : null,
    change.summary ? importSummary(change.summary) : null,
  ].filter((l): l is string => l !== null);
  return (
    <header className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold text-slate-900">{change.recordName}</h1>
        <StateBadge state={change.state} />
      </div>
      <p className="text-sm font-medium text-slate-700">
        {change.collectionLabel} · {REVIEW_TEXTS.actions[change.action]}
      </p>
      <ul className="space-y-0.5 text-sm text-slate-600">
        {lines.map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
      {change.comment && (
        <Note
          tone={change.state === 'rejected' ? 'amber' : 'slate'}
          icon={MessageSquare}
          label={REVIEW_SCREEN.commentLabel}
          text={change.comment}
          testId="review-comment"
        />
      )}
      {change.breakGlassReason && (
        <Note
          tone="red"
          icon={ShieldAlert}
          label={REVIEW_SCREEN.breakGlassLabel}
          text={change.breakGlassReason}
          testId="break-glass-reason"
        />
      )}
      {change.publishError && (
        <Note tone="red" icon={AlertTriangle} label={REVIEW_SCREEN.publishErrorLabel} text={change.publishError} testId="publish-error" />
      )}
    </header>
  );
}

function ImportRows({ rows, total }: { rows: NonNullable<PendingChangeDetail['importRows']>; total: number }) {
  const c = REVIEW_SCREEN.importColumns;
  return (
    <section aria-labelledby="import-rows" className="space-y-3">
      <h2 id="import-rows" className="text-lg font-semibold text-slate-900">
        {REVIEW_SCREEN.importTitle}
      </h2>
      <TableFrame columns={[c.row, c.name, c.status, c.changed]} dense>
        {rows.map((r) => (
          <tr key={r.row}>
            <td className="px-2.5 py-2 text-slate-600">{r.row}</td>
            <td className="px-2.5 py-2 font-medium text-slate-900">{r.name}</td>
            <td className="px-2.5 py-2 text-slate-700">{importStatus(r.status)}</td>
            <td className="px-2.5 py-2 text-slate-700">
              {r.changed.map((f) => (VARIETY_LABELS as Record<string, string>)[f] ?? f).join(', ') || '–'}
            </td>
          </tr>
        ))}
      </TableFrame>
      {total > rows.length && <p className="text-sm text-slate-600">{REVIEW_SCREEN.shown(rows.length, total)}</p>}
    </section>
  );
}

/** One change: who sent it and what happened to it, the decisions this account may make, what it changes, and the farmer app's screen before and after. */
export function ReviewDetailPage() {
  const { id = '' } = useParams();
  const detail = useReviewChange(id);
  const data = detail.data;
  return (
    <div className="space-y-6">
      <Link
        to="/dashboard/review"
        className="-ml-1 inline-flex items-center gap-2 rounded-lg px-1 py-1 text-sm font-medium text-slate-600 hover:text-slate-900"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden />
        {REVIEW_SCREEN.back}
      </Link>
      {!data ? (
        detail.isError ? (
          <p role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-6 text-sm text-red-700">
            {detail.error.message}
          </p>
        ) : (
          <div className="flex justify-center py-16">
            <Spinner />
          </div>
        )
      ) : (
        <>
          <Header detail={data} />
          {/* The change first, then the decision: beside it from 1280 px, a bar at the foot of the screen below. */}
          <div className="space-y-6 xl:grid xl:grid-cols-[minmax(0,1fr)_18rem] xl:items-start xl:gap-6 xl:space-y-0">
            <div className="min-w-0 space-y-6">
              <Comparison detail={data} />
              {data.importRows &&
                (data.change.action === 'translate_file' ? (
                  <TranslationRows rows={data.importRows} total={data.importRowCount ?? data.importRows.length} />
                ) : (
                  <ImportRows rows={data.importRows} total={data.importRowCount ?? data.importRows.length} />
                ))}
              {data.preview && data.change.collection !== 'maintenance' && (
                <AppPreview
                  collection={data.change.collection}
                  preview={data.preview}
                  published={data.decided ? REVIEW_SCREEN.publishedThen : REVIEW_TEXTS.published}
                />
              )}
            </div>
            <DecisionPanel key={data.change.id} detail={data} />
          </div>
        </>
      )}
    </div>
  );
}
