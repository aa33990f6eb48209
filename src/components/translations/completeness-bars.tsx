import { Link } from 'react-router';
import type { TranslatedCollection } from '../../../common/languages';
import type { Completeness } from '../../../common/schemas/languages';
import { TRANSLATE_TEXTS, translatedCollectionLabel } from '../../../common/translate-texts';
import type { StatusFilter } from '../../lib/languages';

const T = TRANSLATE_TEXTS.completeness;
type Item = Completeness['items'][number];

/** Where a count leads (the Translations screen with its filter), when the screen offers links. */
export type CompletenessLink = (collection: TranslatedCollection, lang: string, filter: StatusFilter) => string;

const SEGMENTS = [
  { key: 'current', label: T.upToDate, bar: 'bg-green-600', dot: 'bg-green-600' },
  { key: 'stale', label: T.stale, bar: 'bg-amber-500', dot: 'bg-amber-500' },
  { key: 'missing', label: T.missing, bar: 'bg-slate-300', dot: 'bg-slate-300 ring-1 ring-slate-400' },
] as const;

/** A count, linked to its list where the screen offers links: coloured as its part of the bar is (work left is not green). */
function Count({ value, label, to, tone }: { value: number; label: string; to: string | null; tone?: string }) {
  const text = `${value.toLocaleString('en-US')} ${label.toLowerCase()}`;
  return to && value > 0 ? (
    <Link to={to} className={`font-medium underline underline-offset-2 ${tone ?? 'text-slate-800'}`}>
      {text}
    </Link>
  ) : (
    <span>{text}</span>
  );
}

/** One collection in one language: a bar of translated, needing update and missing fields, and the counts. */
function Row({ item, link }: { item: Item; link?: CompletenessLink | undefined }) {
  const values = { current: item.translated - item.stale, stale: item.stale, missing: item.missing };
  const label = translatedCollectionLabel(item.collection);
  return (
    <li
      className="grid grid-cols-1 gap-1 sm:grid-cols-[10rem_1fr] sm:items-center sm:gap-3"
      data-testid={`completeness-${item.lang}-${item.collection}`}
    >
      <span className="text-sm font-medium text-slate-800">{label}</span>
      {item.total === 0 ? (
        <span className="text-sm text-slate-500">{T.nothing}</span>
      ) : (
        <div className="min-w-0 space-y-1">
          <div
            className="flex h-2.5 overflow-hidden rounded-full bg-slate-100"
            role="img"
            aria-label={`${label}: ${T.summary(values.current, values.stale, values.missing)}`}
          >
            {SEGMENTS.map(
              (s) =>
                values[s.key] > 0 && <span key={s.key} className={s.bar} style={{ width: `${(values[s.key] / item.total) * 100}%` }} />,
            )}
          </div>
          <p className="flex flex-wrap gap-x-3 text-xs text-slate-600">
            <Count value={values.current} label={T.upToDate} to={null} />
            <Count value={values.stale} label={T.stale} to={link?.(item.collection, item.lang, 'stale') ?? null} tone="text-amber-800" />
            <Count
              value={values.missing}
              label={T.missing}
              to={link?.(item.collection, item.lang, 'missing') ?? null}
              tone="text-slate-800"
            />
          </p>
        </div>
      )}
    </li>
  );
}

/** Per language in use, per collection: small bars of translated / needs update / missing, with a legend. */
export function CompletenessBars({
  data,
  collections,
  link,
}: {
  data: Completeness;
  collections: readonly TranslatedCollection[];
  link?: CompletenessLink | undefined;
}) {
  const languages = [...data.languages].sort((a, b) => Number(b.enabled) - Number(a.enabled));
  if (languages.length === 0) return <p className="text-sm text-slate-500">{T.none}</p>;
  return (
    <div className="space-y-4">
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600" aria-hidden>
        {SEGMENTS.map((s) => (
          <li key={s.key} className="inline-flex items-center gap-1.5">
            <span className={`h-2.5 w-2.5 rounded-full ${s.dot}`} />
            {s.label}
          </li>
        ))}
      </ul>
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        {languages.map((l) => (
          <section key={l.code} aria-label={l.name} className="space-y-2">
            <h3 className="text-sm font-semibold text-slate-900">
              {l.enabled ? l.name : TRANSLATE_TEXTS.languages.notInUse(l.name)}{' '}
              <span className="font-normal text-slate-500">({l.code})</span>
            </h3>
            <ul className="space-y-2">
              {collections.map((c) => {
                const item = data.items.find((i) => i.lang === l.code && i.collection === c);
                return item ? <Row key={c} item={item} link={link} /> : null;
              })}
            </ul>
          </section>
        ))}
      </div>
    </div>
  );
}
