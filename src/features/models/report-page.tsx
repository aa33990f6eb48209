import { cn } from '../../components/ui/cn';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { AlertTriangle, ArrowLeft, CheckCircle2, Download, RotateCw } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useToast } from '../../components/ui/toast';
import { MODEL_TEXTS as T } from '../../../common/models';
import { EVALUATION_SET_TEXTS as SET_TEXTS } from '../../../common/evaluation-sets';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { EvaluationReport } from '../../../common/schemas/models';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { predictionsCsvUrl, useEvaluationReport, useStartEvaluation, type PhotoSelection } from './api';
import { ConfusionMatrix, type Cell } from './confusion-matrix';
import { CalibrationChart } from './calibration-chart';
import { CoverageChart } from './coverage-chart';
import { formatPercent, formatScore } from './format';
import { Delta, FewPhotosBadge, PerClassTable } from './per-class-table';
import { PredictionPhotos } from './prediction-photos';

function Section({ id, title, help, children }: { id: string; title: string; help?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h2 id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      {help && <p className="mt-1 text-sm text-slate-600">{help}</p>}
      <div className="mt-3">{children}</div>
    </section>
  );
}

function Stat({ label, value, help, delta, testId }: { label: string; value: string; help?: string; delta?: ReactNode; testId?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-3">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="mt-1 flex flex-wrap items-baseline gap-2">
        <span className="text-2xl font-bold tabular-nums text-slate-900" data-testid={testId}>
          {value}
        </span>
        {delta}
      </dd>
      {help && <dd className="mt-1 text-xs leading-5 text-slate-600">{help}</dd>}
    </div>
  );
}

/** The weakest class with photos, first thing in the report: its F1, its photos, and a mark when they are few. */
function Weakest({ report }: { report: EvaluationReport }) {
  const row = report.perClass.find((c) => c.key === report.weakest);
  if (!row || row.f1 === null) return null;
  if (row.f1 === 1) {
    return (
      <p
        className="flex items-start gap-2 rounded-xl border border-green-200 bg-green-50 p-3 text-sm text-green-900"
        data-testid="report-weakest"
      >
        <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        {S.report.noWeakClass}
      </p>
    );
  }
  return (
    <div className="flex items-start gap-2 rounded-xl border border-amber-200 bg-amber-50 p-3 text-amber-950">
      <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-amber-700" aria-hidden />
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <strong className="font-semibold" data-testid="report-weakest">
            {S.report.weakest(row.name, row.f1, row.support)}
          </strong>
          {row.fewPhotos && <FewPhotosBadge />}
        </p>
        <p className="mt-0.5 text-sm">{S.report.weakestHelp}</p>
      </div>
    </div>
  );
}

/** Seed, fingerprints and split shares: what tells two evaluations apart, folded away from the office's view. */
function TechnicalDetails({ report }: { report: EvaluationReport }) {
  const e = report.evaluation;
  const rows = [
    [S.report.seed, e.seed, true],
    [S.report.ratios, S.report.ratiosValue(e.ratios), false],
    [S.report.modelSha, e.sha256, true],
    [S.report.photoSetSha, e.photoSetSha256, true],
  ] as const;
  return (
    <details className="rounded-lg border border-slate-200 text-sm" data-testid="report-technical">
      <summary
        className={cn(
          'cursor-pointer rounded-lg px-3 py-2 font-medium text-slate-700 hover:bg-slate-50',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600',
        )}
      >
        {S.report.technical}
      </summary>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 border-t border-slate-200 px-3 py-3 sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value, code]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className={cn('min-w-0 text-slate-900', code ? 'break-all font-mono text-xs leading-5' : 'break-words')}>{value}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

function Summary({ report }: { report: EvaluationReport }) {
  const e = report.evaluation;
  const cmp = report.comparison;
  const delta = (mine: number | null, theirs: number | null | undefined, percent: boolean) =>
    cmp && mine !== null && theirs !== null && theirs !== undefined ? <Delta value={mine - theirs} percent={percent} /> : undefined;
  return (
    <div className="space-y-3">
      <Weakest report={report} />
      <dl className="grid grid-cols-1 gap-3 md:grid-cols-3">
        <Stat
          label={T.report.accuracy}
          value={formatPercent(report.accuracy)}
          help={S.report.accuracyHelp(e.total)}
          delta={delta(report.accuracy, cmp?.accuracy, true)}
          testId="report-accuracy"
        />
        <Stat
          label={T.report.macroF1}
          value={formatScore(report.macroF1)}
          help={S.report.balancedHelp}
          delta={delta(report.macroF1, cmp?.macroF1, false)}
          testId="report-macro-f1"
        />
        <Stat
          label={T.report.photos}
          value={e.total.toLocaleString('en-PH')}
          help={e.evaluationSet ? SET_TEXTS.evaluatedOn(e.evaluationSet.name) : T.split[e.split]}
        />
      </dl>
      <p className="text-sm text-slate-700" data-testid="report-comparison">
        {cmp ? S.report.comparedWith(cmp.version) : T.report.noLive}
      </p>
      <TechnicalDetails report={report} />
    </div>
  );
}

/** What the farmer app shows at its threshold: the share it answers and how many of those are right, told apart from Accuracy. */
function AtThreshold({ report }: { report: EvaluationReport }) {
  return (
    <dl className="mb-4 grid grid-cols-1 gap-3 min-[480px]:grid-cols-2 lg:max-w-2xl">
      <Stat
        label={S.report.answered}
        value={formatPercent(report.atThreshold.coverage)}
        help={S.report.answeredHelp(report.threshold)}
        testId="report-answered"
      />
      <Stat
        label={S.report.rightWhenAnswered}
        value={formatPercent(report.atThreshold.accuracy)}
        help={S.report.rightWhenAnsweredHelp}
        testId="report-right-when-answered"
      />
    </dl>
  );
}

type Shown = { selection: PhotoSelection; title: string; at: 'matrix' | 'comparison' } | null;

function Report({ report, modelId, evaluationId }: { report: EvaluationReport; modelId: string; evaluationId: string }) {
  const [shown, setShown] = useState<Shown>(null);
  const names = new Map(report.classes.map((c) => [c.key, c.name]));
  const labelNames = new Map(report.perClass.map((c) => [c.label, c.name]));
  const cell: Cell | null = shown && 'actual' in shown.selection ? shown.selection : null;
  const photos = (at: 'matrix' | 'comparison') =>
    shown?.at === at && (
      <PredictionPhotos
        key={JSON.stringify(shown.selection)}
        modelId={modelId}
        evaluationId={evaluationId}
        selection={shown.selection}
        title={shown.title}
        labelNames={labelNames}
      />
    );
  const cmp = report.comparison;
  return (
    <>
      <Section id="report-summary" title={S.report.summary}>
        <Summary report={report} />
      </Section>
      <Section id="report-classes" title={T.report.perClass} help={S.report.perClassHelp}>
        <PerClassTable report={report} />
      </Section>
      <Section id="report-matrix" title={T.report.confusion} help={S.report.matrixHelp}>
        <ConfusionMatrix
          report={report}
          selected={cell}
          onSelect={(c) =>
            setShown({
              selection: c,
              at: 'matrix',
              title: S.report.cellTitle(names.get(c.actual) ?? c.actual, names.get(c.predicted) ?? c.predicted),
            })
          }
        />
        {photos('matrix')}
      </Section>
      <Section id="report-coverage" title={T.report.coverage} help={S.report.coverageHelp}>
        <AtThreshold report={report} />
        <CoverageChart report={report} />
      </Section>
      <Section id="report-calibration" title={S.report.calibration} help={S.report.calibrationHelp}>
        <CalibrationChart report={report} />
        <p className="mt-3 text-sm font-medium text-slate-900" data-testid="recommended-thresholds">
          {report.recommended.thresholds
            ? S.report.recommended(
                report.recommended.target,
                report.recommended.thresholds.confidence,
                report.recommended.thresholds.margin,
                report.recommended.thresholds.coverage,
              )
            : S.report.noRecommendation(report.recommended.target)}
        </p>
      </Section>
      <Section id="report-comparison" title={T.report.comparison}>
        {!cmp ? (
          <p className="text-sm text-slate-600">{T.report.noLive}</p>
        ) : (
          <>
            <p className="text-sm text-slate-700">{S.report.comparedWith(cmp.version)}</p>
            <h3 className="mt-3 text-sm font-semibold text-slate-900">{T.report.changed}</h3>
            <div className="mt-2 flex flex-wrap gap-2">
              {(['fixed', 'broken'] as const).map((kind) => {
                const count = cmp[kind];
                const pressed = shown?.at === 'comparison' && 'changed' in shown.selection && shown.selection.changed === kind;
                return (
                  <button
                    key={kind}
                    type="button"
                    aria-pressed={pressed}
                    disabled={count === 0}
                    data-testid={`changed-${kind}`}
                    onClick={() => setShown({ selection: { changed: kind }, at: 'comparison', title: S.report.changedTitle[kind] })}
                    className={cn(
                      'inline-flex flex-col items-start rounded-lg border border-slate-300 bg-white px-3 py-2',
                      'text-left text-sm hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2',
                      'focus-visible:ring-brand-600 disabled:cursor-not-allowed disabled:opacity-60',
                      'aria-pressed:border-slate-900 aria-pressed:bg-slate-50',
                    )}
                  >
                    <span className={kind === 'fixed' ? 'font-semibold text-green-800' : 'font-semibold text-red-800'}>
                      {S.report[kind](count)}
                    </span>
                    <span className="text-xs text-slate-600">{kind === 'fixed' ? S.report.fixedHelp : S.report.brokenHelp}</span>
                  </button>
                );
              })}
            </div>
            {photos('comparison')}
          </>
        )}
      </Section>
    </>
  );
}

/** One evaluation's report: summary, per-class scores, the confusion matrix with its photos, coverage, the comparison with live. */
export function ReportPage() {
  const { id = '', evaluationId = '' } = useParams();
  const query = useEvaluationReport(id, evaluationId);
  const report = query.data;
  const start = useStartEvaluation();
  const toast = useToast();
  const rerun = () =>
    report &&
    start.mutate(
      { id, split: report.evaluation.split, sameAs: evaluationId },
      {
        onSuccess: () => toast.show(S.list.started),
        onError: (err) => toast.show(err.message, { tone: 'error' }),
      },
    );
  const csv = (
    <a
      href={predictionsCsvUrl(id, evaluationId)}
      download
      className={cn(
        'inline-flex h-10 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4',
        'text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-none',
        'focus-visible:ring-2 focus-visible:ring-slate-400',
      )}
    >
      <Download className="h-4 w-4" aria-hidden />
      {T.report.csv}
    </a>
  );
  const actions = (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={rerun} disabled={start.isPending}>
        <RotateCw className="h-4 w-4" aria-hidden />
        {S.report.rerun}
      </Button>
      {csv}
    </div>
  );
  return (
    <div className="space-y-5">
      <Link to="/dashboard/scanner_models" className="inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900">
        <ArrowLeft className="h-4 w-4" aria-hidden />
        {S.report.back}
      </Link>
      <PageHeader
        title={report ? S.report.title(report.evaluation.version) : T.title}
        actions={report?.evaluation.state === 'done' ? actions : undefined}
      />
      {query.isPending ? (
        <div className="flex items-center justify-center rounded-2xl border border-slate-200 bg-white p-12">
          <Spinner />
        </div>
      ) : query.isError || !report ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-sm text-red-700">
          {query.error?.message ?? S.report.loadFailed}
        </p>
      ) : report.evaluation.state !== 'done' ? (
        <p className="rounded-lg bg-slate-100 p-4 text-sm text-slate-700">{S.report.notDone(T.state[report.evaluation.state])}</p>
      ) : (
        <Report report={report} modelId={id} evaluationId={evaluationId} />
      )}
    </div>
  );
}
