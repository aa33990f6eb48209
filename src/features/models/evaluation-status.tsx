import { cn } from '../../components/ui/cn';
import { useId, useState } from 'react';
import { Gauge, X } from 'lucide-react';
import { EVALUATION_SPLITS, MODEL_TEXTS as T, type EvaluationSplit } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { ScannerModel } from '../../../common/schemas/models';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { useToast } from '../../components/ui/toast';
import { EVALUATION_SET_TEXTS as SET_TEXTS } from '../../../common/evaluation-sets';
import { runningEvaluation, useCancelEvaluation, useEvaluationSets, useStartEvaluation } from './api';
import { ProgressBar } from './fields';
import { formatDateTime, latestEvaluation } from './format';

/** The model's evaluation now: a progress bar with Cancel while one runs, else the latest result. */
export function EvaluationStatus({ model }: { model: ScannerModel }) {
  const toast = useToast();
  const cancel = useCancelEvaluation();
  const running = runningEvaluation(model);
  const latest = latestEvaluation(model);
  if (running) {
    const text = running.state === 'queued' ? T.state.queued : T.evaluating(running.done, running.total);
    return (
      <div className="flex flex-wrap items-end gap-3" data-testid="evaluation-progress">
        <div className="min-w-48 flex-1">
          <ProgressBar
            label={S.list.progress(model.version)}
            fraction={running.total > 0 ? running.done / running.total : null}
            text={text}
          />
        </div>
        <Button
          variant="secondary"
          size="sm"
          disabled={cancel.isPending}
          onClick={() =>
            cancel.mutate(
              { id: model.id, evaluationId: running.id },
              { onSuccess: () => toast.show(S.list.cancelDone), onError: (err) => toast.show(err.message, { tone: 'error' }) },
            )
          }
        >
          <X className="h-4 w-4" aria-hidden />
          {T.cancel}
        </Button>
      </div>
    );
  }
  if (!latest) return <p className="text-sm text-slate-600">{S.list.noEvaluation}</p>;
  if (latest.state === 'failed') return <p className="text-sm text-red-700">{S.list.failed(latest.error)}</p>;
  if (latest.state === 'cancelled') return <p className="text-sm text-slate-600">{S.list.cancelled}</p>;
  return (
    <div className="text-sm" data-testid="evaluation-result">
      <p className="font-medium tabular-nums text-slate-900">{S.list.result(latest.accuracy, latest.macroF1)}</p>
      <p className="text-slate-600">
        {S.list.onSplit(
          latest.evaluationSet ? SET_TEXTS.evaluatedOn(latest.evaluationSet.name) : T.split[latest.split],
          formatDateTime(latest.finishedAt),
        )}
      </p>
      {!latest.current && <p className="text-amber-800">{S.list.notCurrent}</p>}
    </div>
  );
}

/** "Evaluate": choose the photos (the test split unless told), then the server scores them. */
export function EvaluateButton({ model }: { model: ScannerModel }) {
  const id = useId();
  const toast = useToast();
  const start = useStartEvaluation();
  const [open, setOpen] = useState(false);
  // 'split:<split>' or 'set:<evaluation set id>'.
  const [source, setSource] = useState('split:test');
  const [error, setError] = useState<string | null>(null);
  const sets = useEvaluationSets();
  const run = () =>
    start.mutate(
      source.startsWith('set:')
        ? { id: model.id, split: 'all', evaluationSetId: source.slice(4) }
        : { id: model.id, split: source.slice(6) as EvaluationSplit },
      {
        onSuccess: () => {
          toast.show(S.list.started);
          setOpen(false);
        },
        onError: (err) => setError(err.message),
      },
    );
  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        disabled={runningEvaluation(model) !== null}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        <Gauge className="h-4 w-4" aria-hidden />
        {T.evaluate}
      </Button>
      <Dialog
        open={open}
        onOpenChange={(o) => {
          if (!start.isPending) setOpen(o);
        }}
        title={S.list.evaluateTitle(model.version)}
        description={model.stage === 'plant' ? S.list.evaluatePlantText : S.list.evaluateText}
        size="sm"
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={start.isPending}>
              {T.cancel}
            </Button>
            <Button onClick={run} disabled={start.isPending}>
              {S.list.start}
            </Button>
          </>
        }
      >
        <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
          {S.list.splitLabel}
        </label>
        <select
          id={id}
          value={source}
          onChange={(e) => setSource(e.target.value)}
          className={cn(
            'block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm',
            'outline-none focus:border-brand-600 focus:ring-2 focus:ring-brand-100',
          )}
        >
          <optgroup label={S.list.trainingSplits}>
            {EVALUATION_SPLITS.map((s) => (
              <option key={s} value={`split:${s}`}>
                {T.split[s]}
              </option>
            ))}
          </optgroup>
          {(sets.data?.sets.length ?? 0) > 0 && (
            <optgroup label={SET_TEXTS.title}>
              {sets.data?.sets.map((set) => (
                <option key={set.id} value={`set:${set.id}`}>
                  {`${set.name} (${SET_TEXTS.photos(set.photoCount)})`}
                </option>
              ))}
            </optgroup>
          )}
        </select>
        {error && (
          <p role="alert" className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
        )}
      </Dialog>
    </>
  );
}
