import { useState } from 'react';
import type { TranslationImportPreview } from '../../../common/schemas/languages';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { FilterChip } from '../../components/ui/filter-chip';

const T = TRANSLATE_TEXTS.files;
const PAGE = 100;
type Row = TranslationImportPreview['rows'][number];
type Group = keyof TranslationImportPreview['counts'];

const STATUS_STYLE: Record<Row['status'], string> = {
  new: 'bg-green-100 text-green-800',
  updated: 'bg-sky-100 text-sky-800',
  removed: 'bg-amber-100 text-amber-900',
  unchanged: 'bg-slate-100 text-slate-700',
  error: 'bg-red-100 text-red-800',
};
const GROUP_STYLE: Record<Group, string> = {
  changed: 'bg-sky-100 text-sky-800',
  unchanged: 'bg-slate-100 text-slate-700',
  error: 'bg-red-100 text-red-800',
};
const groupOf = (row: Row): Group => (row.status === 'error' ? 'error' : row.status === 'unchanged' ? 'unchanged' : 'changed');

/** A dry run's units: the counts (each a filter: errors first when there are any), the rows a page at a time. */
export function ImportRows({ preview }: { preview: TranslationImportPreview }) {
  const [group, setGroup] = useState<Group | null>(preview.counts.error > 0 ? 'error' : preview.counts.changed > 0 ? 'changed' : null);
  const [shown, setShown] = useState(PAGE);
  const rows = group === null ? preview.rows : preview.rows.filter((r) => groupOf(r) === group);
  const choose = (next: Group | null) => {
    setGroup(next);
    setShown(PAGE);
  };
  const c = T.columns;
  return (
    <section aria-label={c.status} className="space-y-2">
      <div className="flex flex-wrap items-center gap-2" role="group">
        <FilterChip active={group === null} onClick={() => choose(null)} label={`${T.all} ${preview.units.toLocaleString('en-US')}`} />
        {(['changed', 'unchanged', 'error'] as const).map((g) => (
          <FilterChip
            key={g}
            active={group === g}
            onClick={() => choose(g)}
            tone={GROUP_STYLE[g]}
            testId={`import-count-${g}`}
            label={`${T.counts[g]} ${preview.counts[g].toLocaleString('en-US')}`}
          />
        ))}
      </div>
      <div className="max-h-72 overflow-auto rounded-lg border border-slate-200">
        <table className="min-w-full text-sm">
          <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-3 py-2">{c.unit}</th>
              <th className="px-3 py-2">{c.record}</th>
              <th className="px-3 py-2">{c.field}</th>
              <th className="px-3 py-2">{c.status}</th>
              <th className="px-3 py-2">{c.details}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.slice(0, shown).map((row) => (
              <tr key={row.index} data-testid="import-row" data-status={row.status}>
                <td className="px-3 py-1.5 tabular-nums text-slate-500" title={row.unit}>
                  {row.index}
                </td>
                <td className="px-3 py-1.5 font-medium text-slate-900">{row.record ?? row.unit}</td>
                <td className="px-3 py-1.5 text-slate-700">{row.field ?? '–'}</td>
                <td className="px-3 py-1.5">
                  <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', STATUS_STYLE[row.status])}>
                    {T.statuses[row.status]}
                  </span>
                </td>
                <td className={cn('px-3 py-1.5', row.status === 'error' ? 'text-red-700' : 'text-amber-800')}>{row.error ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex items-center justify-between text-xs text-slate-500">
        <span>{T.shown(Math.min(shown, rows.length), rows.length)}</span>
        {rows.length > shown && (
          <Button variant="secondary" size="sm" onClick={() => setShown((n) => n + PAGE)}>
            {T.showMore}
          </Button>
        )}
      </div>
    </section>
  );
}
