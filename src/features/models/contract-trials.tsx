import { MODEL_TEXTS as T } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import { sameContract, type ContractSearch, type PixelContract } from '../../../common/schemas/models';
import { formatPercent } from './format';

/** The trial's accuracy of a contract, when it was tried. */
export const trialOf = (search: ContractSearch | null, contract: Pick<PixelContract, 'scaling' | 'resize'>) =>
  search?.trials.find((t) => t.contract.scaling === contract.scaling && t.contract.resize === contract.resize) ?? null;

/** Check file's trial of the ways to prepare a photo, best first, with each one's accuracy. */
export function ContractTrials({ search, stated }: { search: ContractSearch; stated: PixelContract | null }) {
  return (
    <section aria-labelledby="contract-trials" className="rounded-lg border border-slate-200 bg-slate-50 p-3" data-testid="contract-trials">
      <h3 id="contract-trials" className="text-sm font-semibold text-slate-900">
        {S.form.contractSearch}
      </h3>
      <p className="mt-1 text-xs text-slate-600">{S.form.contractSearchIntro(search.photos)}</p>
      <ol className="mt-2 space-y-1 text-sm">
        {search.trials.map((t, i) => (
          <li key={`${t.contract.scaling}/${t.contract.resize}`} className="flex justify-between gap-3">
            <span className={i === 0 ? 'font-semibold text-slate-900' : 'text-slate-700'}>
              {S.form.contractTrial(T.scaling[t.contract.scaling], T.resize[t.contract.resize])}
              {i === 0 && <span className="ml-2 rounded bg-brand-100 px-1.5 py-0.5 text-xs text-brand-800">{S.form.contractBest}</span>}
              {stated && sameContract(t.contract, stated) && (
                <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-800" data-testid="contract-stated">
                  {S.form.contractStated}
                </span>
              )}
            </span>
            <span className="shrink-0 whitespace-nowrap tabular-nums text-slate-900">{formatPercent(t.accuracy)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
