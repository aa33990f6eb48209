import { AlertTriangle } from 'lucide-react';
import { MODEL_TEXTS as T, PLANT_VERDICTS, type ModelStage, type PlantVerdict } from '../../../common/models';
import { MODEL_SCREEN_TEXTS as S } from '../../../common/model-screen-texts';
import { cn } from '../../components/ui/cn';
import type { RecordOption } from './api';

export interface LabelTarget {
  recordId: string | null;
  verdict: PlantVerdict | null;
}

export interface MappingRow {
  index: number;
  label: string;
  /** How the server's suggestion was found ('none': nothing matched; null for a stored mapping). */
  matchedBy: keyof typeof S.mapping.matchedBy | null;
  /** The name a stored mapping's record had, when it is no longer among the choices. */
  staleName?: string | null;
}

const mapped = (stage: ModelStage, t: LabelTarget | undefined) => (stage === 'plant' ? t?.verdict != null : t?.recordId != null);

/** What keeps a mapping from being saved: unmapped labels, records not live, a record given twice. */
export function mappingProblems(stage: ModelStage, rows: MappingRow[], value: LabelTarget[], records: RecordOption[]): string[] {
  const problems: string[] = [];
  const unmapped = rows.filter((r) => !mapped(stage, value[r.index])).map((r) => r.label);
  if (unmapped.length > 0) problems.push(T.unmapped(unmapped));
  if (stage === 'disease') {
    const byId = new Map(records.map((r) => [r.id, r]));
    const gone = rows.filter((r) => value[r.index]?.recordId != null && !byId.has(value[r.index]!.recordId!)).map((r) => r.label);
    if (gone.length > 0) problems.push(T.unknownRecord(gone));
    const seen = new Set<string>();
    for (const r of rows) {
      const id = value[r.index]?.recordId;
      if (!id || !byId.has(id)) continue;
      if (seen.has(id)) {
        problems.push(T.recordTwice(byId.get(id)!.name));
        break;
      }
      seen.add(id);
    }
  }
  return problems;
}

function recordLabel(r: RecordOption): string {
  return r.localName ? `${r.name} (${r.localName})` : r.name;
}

/** Each label of the model with a choice of what it means: a disease or training class, or a plant verdict. */
export function MappingTable({
  stage,
  rows,
  records,
  value,
  onChange,
  disabled,
}: {
  stage: ModelStage;
  rows: MappingRow[];
  records: RecordOption[];
  value: LabelTarget[];
  onChange(index: number, target: LabelTarget): void;
  disabled?: boolean;
}) {
  const problems = mappingProblems(stage, rows, value, records);
  const diseases = records.filter((r) => !r.trainingClass);
  const classes = records.filter((r) => r.trainingClass);
  return (
    <div className="space-y-3" data-testid="mapping-table">
      {problems.length > 0 && (
        <div
          className="space-y-1 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
          aria-live="polite"
          data-testid="mapping-problems"
        >
          {problems.map((p) => (
            <p key={p} className="flex gap-2">
              <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              {p}
            </p>
          ))}
        </div>
      )}
      <div className="max-h-96 overflow-auto rounded-lg border border-slate-200">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{S.mapping.caption}</caption>
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              <th scope="col" className="px-2 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                {S.mapping.index}
              </th>
              <th scope="col" className="px-2 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                {S.mapping.label}
              </th>
              <th scope="col" className="px-2 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                {S.mapping.target}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => {
              const target = value[row.index] ?? { recordId: null, verdict: null };
              const missing = !mapped(stage, target);
              const flagged = row.matchedBy === 'none' || missing;
              const current = stage === 'plant' ? (target.verdict ?? '') : (target.recordId ?? '');
              const stale =
                stage === 'disease' && target.recordId && !records.some((r) => r.id === target.recordId) ? target.recordId : null;
              return (
                <tr
                  key={row.index}
                  data-testid="mapping-row"
                  data-label={row.label}
                  data-unmapped={missing || undefined}
                  className={cn(flagged && 'bg-amber-50')}
                >
                  <td className={cn('px-2 py-2 align-top tabular-nums text-slate-600', flagged && 'border-l-4 border-amber-500')}>
                    {row.index}
                  </td>
                  <th scope="row" className="px-2 py-2 text-left align-top font-medium text-slate-900">
                    <span className="break-words">{row.label}</span>
                    {row.matchedBy && (
                      <span
                        className={cn(
                          'mt-0.5 block text-xs font-normal',
                          row.matchedBy === 'none' ? 'font-semibold text-amber-900' : 'text-slate-600',
                        )}
                      >
                        {S.mapping.matchedBy[row.matchedBy]}
                      </span>
                    )}
                  </th>
                  <td className="px-2 py-2 align-top">
                    <select
                      aria-label={S.mapping.chooseFor(row.label)}
                      value={current}
                      disabled={disabled}
                      aria-invalid={missing || undefined}
                      onChange={(e) => {
                        const v = e.target.value || null;
                        onChange(
                          row.index,
                          stage === 'plant' ? { recordId: null, verdict: v as PlantVerdict | null } : { recordId: v, verdict: null },
                        );
                      }}
                      className={cn(
                        'block h-9 w-full min-w-32 rounded-lg border bg-white px-2 text-sm outline-none focus:ring-2',
                        missing ? 'border-amber-500 focus:ring-amber-200' : 'border-slate-300 focus:border-brand-600 focus:ring-brand-100',
                      )}
                    >
                      <option value="">{S.mapping.choose}</option>
                      {stage === 'plant' ? (
                        PLANT_VERDICTS.map((v) => (
                          <option key={v} value={v}>
                            {T.verdict[v]}
                          </option>
                        ))
                      ) : (
                        <>
                          {stale && <option value={stale}>{`${row.staleName ?? stale} ${S.mapping.notLive}`}</option>}
                          {diseases.length > 0 && (
                            <optgroup label={S.mapping.diseases}>
                              {diseases.map((r) => (
                                <option key={r.id} value={r.id}>
                                  {recordLabel(r)}
                                </option>
                              ))}
                            </optgroup>
                          )}
                          {classes.length > 0 && (
                            <optgroup label={S.mapping.trainingClasses}>
                              {classes.map((r) => (
                                <option key={r.id} value={r.id}>
                                  {recordLabel(r)}
                                </option>
                              ))}
                            </optgroup>
                          )}
                        </>
                      )}
                    </select>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
