import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import type { ModelInspection } from '../../../common/schemas/models';
import { formatBytes } from './format';

/** What the server read of a model file: its input (so the size need not be typed), outputs, operators, hash. */
export function ModelFacts({ inspection }: { inspection: ModelInspection }) {
  const facts: Array<[string, string]> = [
    [S.form.inputSize, S.form.inputDescription(inspection.inputShape, inspection.inputType)],
    [S.form.outputs, S.form.outputDescription(inspection.outputSize, inspection.outputQuantization)],
    [S.form.operators, inspection.operators.join(', ') || '–'],
    [S.form.size, formatBytes(inspection.size)],
    [S.form.sha256, inspection.sha256],
  ];
  return (
    <section aria-labelledby="model-facts" className="rounded-lg border border-slate-200 bg-slate-50 p-3" data-testid="model-facts">
      <h3 id="model-facts" className="text-sm font-semibold text-slate-900">
        {S.form.facts}
      </h3>
      <dl className="mt-2 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-600">{label}</dt>
            <dd className="min-w-0 break-words text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-xs text-slate-600">{S.form.labelsFrom[inspection.labelsFrom]}</p>
    </section>
  );
}
