import { Languages } from 'lucide-react';
import type { TranslatedCollection } from '../../../common/languages';
import type { Language, TranslationStatusList } from '../../../common/schemas/languages';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { Button } from '../../components/ui/button';
import { Spinner } from '../../components/ui/spinner';
import { TableFrame } from '../../components/ui/table-frame';
import { useTranslationStatus, type StatusFilter } from '../../lib/languages';

const T = TRANSLATE_TEXTS.screen;
type Item = TranslationStatusList['items'][number];

function Count({ value, tone }: { value: number; tone: string }) {
  return value === 0 ? (
    <span className="text-slate-400">0</span>
  ) : (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>{value}</span>
  );
}

/** A collection's records in one language, as filtered (all, missing, needs update); each opens the editor. */
export function StatusList({
  collection,
  language,
  filter,
  onOpen,
}: {
  collection: TranslatedCollection;
  language: Language;
  filter: StatusFilter;
  onOpen(item: Item): void;
}) {
  const status = useTranslationStatus(collection, language.code, filter);
  const items = status.data?.items ?? [];
  const empty = filter === 'all' ? T.empty.all : T.empty[filter](language.name);
  return (
    <TableFrame columns={[T.record, T.fields, T.missing, T.stale, T.actions]} busy={status.isFetching}>
      {status.isPending ? (
        <tr>
          <td colSpan={5} className="px-4 py-8 text-center text-slate-500">
            <span className="inline-flex items-center gap-3">
              <Spinner className="h-5 w-5" label={T.loading} />
              {T.loading}
            </span>
          </td>
        </tr>
      ) : status.isError ? (
        <tr>
          <td colSpan={5} role="alert" className="px-4 py-8 text-center text-red-600">
            {status.error.message}
          </td>
        </tr>
      ) : items.length === 0 ? (
        <tr>
          <td colSpan={5} className="px-4 py-8 text-center text-slate-500">
            {empty}
          </td>
        </tr>
      ) : (
        items.map((item) => (
          <tr key={item.recordId} data-testid="status-row" className="hover:bg-slate-50/70">
            <td className="px-3 py-2.5 font-medium text-slate-900">{item.name}</td>
            <td className="px-3 py-2.5 tabular-nums text-slate-600">{item.fields}</td>
            <td className="px-3 py-2.5 tabular-nums">
              <Count value={item.missing} tone="bg-slate-200 text-slate-800" />
            </td>
            <td className="px-3 py-2.5 tabular-nums">
              <Count value={item.stale} tone="bg-amber-100 text-amber-900" />
            </td>
            <td className="px-3 py-2">
              <Button variant="secondary" size="sm" onClick={() => onOpen(item)} aria-label={T.translate(item.name)}>
                <Languages className="h-4 w-4" aria-hidden />
                {TRANSLATE_TEXTS.button}
              </Button>
            </td>
          </tr>
        ))
      )}
    </TableFrame>
  );
}
