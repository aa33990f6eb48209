import { cn } from '../../components/ui/cn';
import { useEffect, useId, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { AlertTriangle, Send } from 'lucide-react';
import { MODEL_CHANNELS, MODEL_LIMITS, MODEL_TEXTS as T, THRESHOLD_MARGINS } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { ScannerModel } from '../../../common/schemas/models';
import { z } from '../../../common/schemas/zod';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { Form, useZodForm } from '../../components/ui/form';
import { useToast } from '../../components/ui/toast';
import { failedChecks, useEvaluationReport, usePublish } from './api';
import { latestReport } from './format';
import { NumberField, TextAreaField } from '../../components/ui/more-fields';

const DEFAULT_PILOT_SHARE = 10;

const publishFormSchema = z
  .object({
    channel: z.enum(MODEL_CHANNELS),
    share: z.number().or(z.nan()),
    confidence: z.number({ error: S.form.confidenceHint }).min(0, S.form.confidenceHint).max(1, S.form.confidenceHint),
    margin: z.number({ error: S.form.marginHint }).min(0, S.form.marginHint).max(1, S.form.marginHint),
    note: z.string().trim().min(1, T.noteNeeded).max(MODEL_LIMITS.maxNoteLength, S.form.noteTooLong),
    overrideReason: z.string().trim().max(MODEL_LIMITS.maxNoteLength, S.form.noteTooLong),
  })
  .superRefine((v, ctx) => {
    if (
      v.channel === 'pilot' &&
      !(Number.isInteger(v.share) && v.share >= MODEL_LIMITS.minPilotShare && v.share <= MODEL_LIMITS.maxPilotShare)
    ) {
      ctx.addIssue({ code: 'custom', path: ['share'], message: S.publishing.shareInvalid });
    }
  });
type PublishValues = z.output<typeof publishFormSchema>;

function ChannelChoice() {
  const { register } = useFormContext();
  const id = useId();
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-slate-700">{S.publishing.channel}</legend>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {MODEL_CHANNELS.map((channel) => (
          <label
            key={channel}
            htmlFor={`${id}-${channel}`}
            className={cn(
              'flex cursor-pointer items-start gap-2 rounded-lg border border-slate-300 p-3 text-sm',
              'has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50',
            )}
          >
            <input
              id={`${id}-${channel}`}
              type="radio"
              value={channel}
              className="mt-0.5 h-4 w-4 accent-brand-700"
              {...register('channel')}
            />
            <span>
              <span className="block font-medium text-slate-900">{T.channel[channel]}</span>
              <span className="block text-slate-600">{S.publishing.channelHint[channel]}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The thresholds the app applies once published: set to the recommendation of the model's
 * latest finished evaluation (else the model's own), with what the typed ones would do on the
 * evaluated photos and a warning when they miss the target.
 */
function ThresholdFields({ model, evaluationId }: { model: ScannerModel; evaluationId: string | null }) {
  const report = useEvaluationReport(model.id, evaluationId ?? '', evaluationId !== null);
  const { setValue, getFieldState, formState } = useFormContext<PublishValues>();
  const [confidence, margin] = useWatch<PublishValues, ['confidence', 'margin']>({ name: ['confidence', 'margin'] });
  const data = report.data;
  const recommended = data?.recommended.thresholds ?? null;
  // The recommendation arrives after the dialog opens: it is taken while the fields are untouched.
  useEffect(() => {
    if (!recommended || getFieldState('confidence', formState).isDirty || getFieldState('margin', formState).isDirty) return;
    setValue('confidence', recommended.confidence);
    setValue('margin', recommended.margin);
  }, [recommended, setValue, getFieldState, formState]);
  const cell =
    data && Number.isFinite(confidence) && Number.isFinite(margin)
      ? data.thresholdGrid.find((g) => Math.abs(g.margin - margin) < 1e-9)?.points[Math.floor(confidence * 100 + 1e-9)]
      : undefined;
  const misses = data && cell && cell.accuracy !== null && cell.accuracy < data.recommended.target;
  return (
    <fieldset className="space-y-2" data-testid="publish-thresholds">
      <legend className="mb-1 text-sm font-medium text-slate-700">{S.publishing.thresholds[model.stage]}</legend>
      <p className="text-xs text-slate-600">
        {recommended && data ? S.publishing.fromRecommendation(data.recommended.target) : S.publishing.fromModel}
      </p>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <NumberField name="confidence" label={S.form.confidence} step="0.01" min={0} max={1} />
        <NumberField name="margin" label={S.form.margin} step="0.05" min={0} max={1} />
      </div>
      {data && (
        <p className={cn('text-sm', misses ? 'text-amber-900' : 'text-slate-700')} data-testid="thresholds-estimate" aria-live="polite">
          {cell ? S.publishing.estimate(cell.coverage, cell.accuracy) : S.publishing.noEstimate(THRESHOLD_MARGINS)}
          {misses && (
            <span className="mt-1 flex gap-2 font-semibold" data-testid="thresholds-below-target">
              <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              {S.publishing.missesTarget(data.recommended.target)}
            </span>
          )}
        </p>
      )}
    </fieldset>
  );
}

/**
 * Publish a model to everyone or to a pilot share. When the server's checks fail it names them;
 * the user may then publish anyway with a written reason, which is kept and highlighted.
 */
export function PublishDialog({ model, onClose }: { model: ScannerModel; onClose(): void }) {
  const formId = useId();
  const toast = useToast();
  const publish = usePublish();
  const [checks, setChecks] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const onPilot = model.channels.some((c) => c.channel === 'pilot');
  const form = useZodForm(publishFormSchema, {
    defaultValues: {
      channel: onPilot ? 'live' : 'pilot',
      share: DEFAULT_PILOT_SHARE,
      confidence: model.thresholds.confidence,
      margin: model.thresholds.margin,
      note: '',
      overrideReason: '',
    },
  });
  const pilot = form.watch('channel') === 'pilot';
  const latestDone = latestReport(model);

  async function submit(values: PublishValues) {
    const override = checks !== null;
    if (override && values.overrideReason.length < MODEL_LIMITS.minReasonLength) {
      form.setError('overrideReason', { type: 'min', message: T.reasonNeeded }, { shouldFocus: true });
      return;
    }
    setError(null);
    try {
      await publish.mutateAsync({
        id: model.id,
        channel: values.channel,
        ...(values.channel === 'pilot' ? { share: values.share } : {}),
        note: values.note,
        thresholds: { confidence: values.confidence, margin: values.margin },
        ...(override ? { overrideReason: values.overrideReason } : {}),
      });
      toast.show(S.publishing.published(model.version, values.channel));
      onClose();
    } catch (err) {
      const failed = failedChecks(err);
      if (failed) setChecks(failed);
      else setError((err as Error).message);
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o && !publish.isPending) onClose();
      }}
      title={S.publishing.title(model.version)}
      size="md"
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={publish.isPending}>
            {T.cancel}
          </Button>
          <Button type="submit" form={formId} variant={checks ? 'danger' : 'primary'} disabled={publish.isPending}>
            <Send className="h-4 w-4" aria-hidden />
            {checks ? S.publishing.override : T.publish}
          </Button>
        </>
      }
    >
      <Form form={form} id={formId} onSubmit={submit} className="space-y-4">
        <fieldset disabled={publish.isPending} className="space-y-4">
          <ChannelChoice />
          {pilot && (
            <NumberField
              name="share"
              label={S.publishing.share}
              step="1"
              min={MODEL_LIMITS.minPilotShare}
              max={MODEL_LIMITS.maxPilotShare}
              className="max-w-48"
            />
          )}
          <ThresholdFields model={model} evaluationId={latestDone?.id ?? null} />
          <TextAreaField name="note" label={S.publishing.note} hint={S.publishing.noteHint} />
          {checks && (
            <div className="space-y-3 rounded-lg border border-red-300 bg-red-50 p-3" data-testid="publish-checks">
              <p role="alert" className="flex gap-2 text-sm font-semibold text-red-800">
                <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
                {S.publishing.checksFailed}
              </p>
              <ul className="list-disc space-y-1 pl-6 text-sm text-red-900">
                {checks.map((c) => (
                  <li key={c}>{c}</li>
                ))}
              </ul>
              <TextAreaField name="overrideReason" label={S.publishing.reason} hint={S.publishing.reasonHint} />
            </div>
          )}
          {error && (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
              {error}
            </p>
          )}
        </fieldset>
      </Form>
    </Dialog>
  );
}
