import { useState } from 'react';
import { AlertTriangle, Download } from 'lucide-react';
import { csvRow } from '../../../common/csv';
import type { ImportMapping, ImportPreview, ImportRow } from '../../../common/schemas/spreadsheets';
import { IMPORT_STATUSES, IMPORT_TEXTS, SPREADSHEET_LIMITS, VARIETY_COLUMNS, type ImportStatus } from '../../../common/spreadsheets';
import { VARIETY_LABELS, type VarietyField } from '../../../common/varieties';
import { Button } from '../../components/ui/button';
import { cn } from '../../components/ui/cn';
import { FilterChip } from '../../components/ui/filter-chip';

const T = IMPORT_TEXTS;

const STATUS_STYLE: Record<ImportStatus, string> = {
  new: 'bg-green-100 text-green-800',
  update: 'bg-sky-100 text-sky-800',
  unchanged: 'bg-slate-100 text-slate-700',
  error: 'bg-red-100 text-red-800',
};

/** The file's columns and the field each goes to; a change runs the dry run again. */
export function ColumnMapping({
  preview,
  onChange,
  disabled,
}: {
  preview: ImportPreview;
  onChange(mapping: ImportMapping): void;
  disabled: boolean;
}) {
  const current = Object.fromEntries(preview.columns.map((c) => [String(c.index), c.field])) as ImportMapping;
  const matched = preview.columns.filter((c) => c.field !== null).length;
  // Open by itself when something needs a look: a required field without a column, or a column left out.
  const attention = preview.missing.length > 0 || preview.columns.some((c) => c.field === null && !c.readOnly);
  return (
    <details open={attention} className="group rounded-lg border border-slate-200 px-3 py-2">
      <summary className="cursor-pointer text-sm font-semibold text-slate-900">
        {T.mappingTitle}: <span className="font-normal text-slate-600">{T.mappingSummary(matched, preview.columns.length)}</span>
      </summary>
      <p className="mt-1 text-xs text-slate-500">{T.mappingHelp}</p>
      {preview.missing.length > 0 && (
        <p role="alert" className="mt-2 flex items-start gap-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
          {T.missingRequired(preview.missing.map((f) => VARIETY_LABELS[f]))}
        </p>
      )}
      <div className="mt-2 grid max-h-48 grid-cols-1 gap-x-4 gap-y-1.5 overflow-y-auto pr-1 sm:grid-cols-2">
        {preview.columns.map((column) => (
          <label key={column.index} className="flex items-center justify-between gap-2 text-sm">
            <span className="truncate text-slate-700" title={column.header}>
              {column.header || `#${column.index + 1}`}
            </span>
            <select
              className="h-8 w-44 shrink-0 rounded-md border border-slate-300 bg-white px-2 text-sm disabled:bg-slate-50"
              value={column.field ?? ''}
              disabled={disabled || column.readOnly}
              onChange={(e) => onChange({ ...current, [String(column.index)]: (e.target.value || null) as VarietyField | null })}
            >
              <option value="">{column.readOnly ? T.readOnlyColumn : T.notImported}</option>
              {VARIETY_COLUMNS.map((field) => (
                <option key={field} value={field}>
                  {VARIETY_LABELS[field]}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
    </details>
  );
}

/** The errors as a CSV to fix the spreadsheet by: row, column, value, message (the exports' own cell writer). */
function downloadErrors(rows: readonly ImportRow[]): void {
  const lines = [csvRow(T.errorColumns)];
  for (const row of rows) for (const e of row.errors) lines.push(csvRow([row.row, e.column, e.value, e.message]));
  const url = URL.createObjectURL(new Blob([`\ufeff${lines.join('\r\n')}\r\n`], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = T.errorsFile;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function details(row: ImportRow): string {
  if (row.errors.length > 0) return row.errors.map((e) => `${e.column}: ${e.message}`).join(' ');
  if (row.status === 'update') return T.changes(row.changed.map((f) => VARIETY_LABELS[f]));
  return '';
}

/** Counts by result (each a filter), the rows a page at a time, and the errors as a CSV. */
export function ImportRows({ preview }: { preview: ImportPreview }) {
  const [filter, setFilter] = useState<ImportStatus | null>(preview.counts.error > 0 ? 'error' : null);
  const [shown, setShown] = useState<number>(SPREADSHEET_LIMITS.previewPage);
  const rows = filter === null ? preview.rows : preview.rows.filter((r) => r.status === filter);
  const choose = (next: ImportStatus | null) => {
    setFilter(next);
    setShown(SPREADSHEET_LIMITS.previewPage);
  };
  return (
    <section aria-label={T.tableStatus} className="space-y-2">
      <div className="flex flex-wrap items-center gap-2" role="group">
        <FilterChip
          active={filter === null}
          onClick={() => choose(null)}
          label={`${T.filterAll} ${preview.rows.length.toLocaleString('en-US')}`}
        />
        {IMPORT_STATUSES.map((status) => (
          <FilterChip
            key={status}
            active={filter === status}
            onClick={() => choose(status)}
            tone={STATUS_STYLE[status]}
            label={`${T.counts[status]} ${preview.counts[status].toLocaleString('en-US')}`}
            testId={`import-count-${status}`}
          />
        ))}
        {preview.counts.error > 0 && (
          <Button variant="ghost" size="sm" className="ml-auto" onClick={() => downloadErrors(preview.rows)}>
            <Download className="h-4 w-4" aria-hidden />
            {T.errorsCsv}
          </Button>
        )}
      </div>
      <div className="max-h-72 overflow-auto rounded-lg border border-slate-200">
        <table className="min-w-full text-sm">
          <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-500">
            <tr>
              <th className="px-3 py-2">{T.tableRow}</th>
              <th className="px-3 py-2">{T.tableName}</th>
              <th className="px-3 py-2">{T.tableStatus}</th>
              <th className="px-3 py-2">{T.tableDetails}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.slice(0, shown).map((row) => (
              <tr key={row.row} data-testid="import-row" data-status={row.status}>
                <td className="px-3 py-1.5 tabular-nums text-slate-500">{row.row}</td>
                <td className="px-3 py-1.5 font-medium text-slate-900">{row.name || '-'}</td>
                <td className="px-3 py-1.5">
                  <span className={cn('rounded-full px-2 py-0.5 text-xs font-semibold', STATUS_STYLE[row.status])}>
                    {T.counts[row.status]}
                  </span>
                </td>
                <td className={cn('px-3 py-1.5', row.status === 'error' ? 'text-red-700' : 'text-slate-600')}>{details(row)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex items-center justify-between text-xs text-slate-500">
        <span>{T.showing(Math.min(shown, rows.length), rows.length)}</span>
        {rows.length > shown && (
          <Button variant="secondary" size="sm" onClick={() => setShown((n) => n + SPREADSHEET_LIMITS.previewPage)}>
            {T.showMore}
          </Button>
        )}
      </div>
    </section>
  );
}
