import { useFormContext } from 'react-hook-form';
import { IMAGENET_MEAN_STD, MODEL_LIMITS, MODEL_STAGES, MODEL_TEXTS as T, PIXEL_SCALINGS, RESIZE_METHODS } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { PixelContract, ScannerModel, Thresholds } from '../../../common/schemas/models';
import { z } from '../../../common/schemas/zod';
import { FieldError } from '../../components/ui/form';
import { NumberField, OptionsField, TextAreaField } from '../../components/ui/more-fields';

const unit = z.number({ error: S.form.numberNeeded }).min(0, S.form.numberNeeded).max(1, S.form.numberNeeded);
const settingsFields = {
  scaling: z.enum(PIXEL_SCALINGS),
  // Read only with 'mean-std' (checked below): hidden boxes never block the form.
  mean: z.array(z.number().or(z.nan())),
  std: z.array(z.number().or(z.nan())),
  resize: z.enum(RESIZE_METHODS),
  confidence: unit,
  margin: unit,
  note: z.string().trim().max(MODEL_LIMITS.maxNoteLength, S.form.noteTooLong),
};

function meanStdChecked(values: { scaling: string; mean: number[]; std: number[] }, ctx: z.RefinementCtx) {
  if (values.scaling !== 'mean-std') return;
  const finite = (xs: number[]) => xs.length === 3 && xs.every((x) => Number.isFinite(x));
  if (!finite(values.mean) || !finite(values.std) || !values.std.every((s) => s > 0))
    ctx.addIssue({ code: 'custom', path: ['std'], message: T.meanStdNeeded });
}

/** The Settings dialog's form: the pixel contract, the thresholds and the note. */
export const settingsFormSchema = z.object(settingsFields).superRefine(meanStdChecked);
/** The upload's form: the stage, then the same settings. */
export const uploadFormSchema = z.object({ stage: z.enum(MODEL_STAGES), ...settingsFields }).superRefine(meanStdChecked);
export type SettingsFormValues = z.output<typeof settingsFormSchema>;

/** The form's values of a model's settings (ImageNet's mean and std in place of none). */
export function settingsValues(model: Pick<ScannerModel, 'contract' | 'thresholds' | 'note'> | null): z.input<typeof settingsFormSchema> {
  return {
    scaling: model?.contract.scaling ?? '0-1',
    mean: [...(model?.contract.mean ?? IMAGENET_MEAN_STD.mean)],
    std: [...(model?.contract.std ?? IMAGENET_MEAN_STD.std)],
    resize: model?.contract.resize ?? 'stretch',
    confidence: model?.thresholds.confidence ?? MODEL_LIMITS.defaultConfidence,
    margin: model?.thresholds.margin ?? MODEL_LIMITS.defaultMargin,
    note: model?.note ?? '',
  };
}

/** What the API takes of the form's settings. */
export function contractOf(values: SettingsFormValues): { contract: PixelContract; thresholds: Thresholds; note: string } {
  const meanStd = values.scaling === 'mean-std';
  return {
    contract: {
      scaling: values.scaling,
      mean: meanStd ? [values.mean[0]!, values.mean[1]!, values.mean[2]!] : null,
      std: meanStd ? [values.std[0]!, values.std[1]!, values.std[2]!] : null,
      resize: values.resize,
    },
    thresholds: { confidence: values.confidence, margin: values.margin },
    note: values.note,
  };
}

const scalingOptions = PIXEL_SCALINGS.map((value) => ({ value, label: T.scaling[value] }));
const resizeOptions = RESIZE_METHODS.map((value) => ({ value, label: T.resize[value] }));

/** The pixel contract, thresholds and note fields (upload and Settings). */
export function ContractFields({ disabled }: { disabled?: boolean }) {
  const { watch, formState } = useFormContext<z.input<typeof settingsFormSchema>>();
  const meanStd = watch('scaling') === 'mean-std';
  return (
    <fieldset disabled={disabled} className="space-y-4">
      <fieldset className="space-y-3">
        <legend className="mb-2 text-sm font-semibold text-slate-900">{S.form.contract}</legend>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <OptionsField name="scaling" label={S.form.scaling} options={scalingOptions} />
          <OptionsField name="resize" label={S.form.resize} options={resizeOptions} />
        </div>
        {meanStd && (
          <div className="rounded-lg border border-slate-200 p-3">
            <p className="mb-2 text-xs text-slate-600">{S.form.meanStdHint}</p>
            <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-3">
              {[0, 1, 2].map((i) => (
                <NumberField key={`mean${i}`} name={`mean.${i}`} label={S.form.mean(i)} />
              ))}
              {[0, 1, 2].map((i) => (
                <NumberField key={`std${i}`} name={`std.${i}`} label={S.form.std(i)} />
              ))}
            </div>
            <FieldError id="mean-std-error" message={(formState.errors.std as { message?: string } | undefined)?.message} />
          </div>
        )}
      </fieldset>
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-slate-900">{S.form.thresholds}</legend>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <NumberField name="confidence" label={S.form.confidence} hint={S.form.confidenceHint} min={0} max={1} step="0.01" />
          <NumberField name="margin" label={S.form.margin} hint={S.form.marginHint} min={0} max={1} step="0.01" />
        </div>
      </fieldset>
      <TextAreaField name="note" label={S.form.note} hint={S.form.noteHint} />
    </fieldset>
  );
}
