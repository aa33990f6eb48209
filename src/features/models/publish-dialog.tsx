import { cn } from '../../components/ui/cn';
import { useId, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { AlertTriangle, Send } from 'lucide-react';
import { MODEL_CHANNELS, MODEL_LIMITS, MODEL_TEXTS as T } from '../../../common/models';
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
 * How the model's thresholds fare on its latest finished evaluation: below the target, it says
 * so with the thresholds that reach it (changed in the model's settings).
 */
function ThresholdsAgainstTarget({ model, evaluationId }: { model: ScannerModel; evaluationId: string }) {
  const report = useEvaluationReport(model.id, evaluationId);
  const data = report.data;
  if (!data || data.atThreshold.accuracy === null || data.atThreshold.accuracy >= data.recommended.target) return null;
  const r = data.recommended;
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="thresholds-below-target">
      <p className="font-semibold">{S.report.belowTarget(r.target)}</p>
      <p className="mt-1">
        {r.thresholds
          ? S.report.recommended(r.target, r.thresholds.confidence, r.thresholds.margin, r.thresholds.coverage)
          : S.report.noRecommendation(r.target)}
      </p>
    </div>
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
    defaultValues: { channel: onPilot ? 'live' : 'pilot', share: DEFAULT_PILOT_SHARE, note: '', overrideReason: '' },
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
          {latestDone && <ThresholdsAgainstTarget model={model} evaluationId={latestDone.id} />}
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
