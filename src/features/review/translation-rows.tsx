import { REVIEW_SCREEN } from '../../../common/review-screen-texts';
import type { PendingChangeDetail } from '../../../common/schemas/review';
import { TableFrame } from '../../components/ui/table-frame';
import { importStatus } from './format';

/** A translators' file under review: per unit, the English, the translation published now and the one proposed. */
export function TranslationRows({ rows, total }: { rows: NonNullable<PendingChangeDetail['importRows']>; total: number }) {
  const c = REVIEW_SCREEN.translationColumns;
  const text = (value: string | undefined) =>
    value ? (
      <span className="whitespace-pre-line">{value}</span>
    ) : (
      <span className="italic text-slate-500">{REVIEW_SCREEN.noTranslation}</span>
    );
  return (
    <section aria-labelledby="translation-rows" className="space-y-3">
      <h2 id="translation-rows" className="text-lg font-semibold text-slate-900">
        {REVIEW_SCREEN.translationsTitle}
      </h2>
      <TableFrame columns={[c.row, c.record, c.field, c.english, c.published, c.proposed]} dense>
        {rows.map((r) => (
          <tr key={r.row} className="align-top">
            <td className="px-2.5 py-2 text-slate-600">{r.row}</td>
            <td className="px-2.5 py-2 font-medium text-slate-900">{r.name}</td>
            <td className="px-2.5 py-2 text-slate-700">
              {r.changed.join(', ')}
              <span className="block text-xs text-slate-500">{importStatus(r.status)}</span>
            </td>
            <td className="max-w-xs px-2.5 py-2 text-slate-700">{text(r.values?.english)}</td>
            <td className="max-w-xs px-2.5 py-2 text-slate-700">{text(r.values?.published)}</td>
            <td className="max-w-xs px-2.5 py-2 text-slate-900">{text(r.values?.proposed)}</td>
          </tr>
        ))}
      </TableFrame>
      {total > rows.length && <p className="text-sm text-slate-600">{REVIEW_SCREEN.shown(rows.length, total)}</p>}
    </section>
  );
}
