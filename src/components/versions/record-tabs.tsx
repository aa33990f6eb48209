import { useId, useState, type ReactNode } from 'react';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { VERSION_TEXTS as T } from '../../../common/versions';
import { cn } from '../ui/cn';

export type RecordTab = 'details' | 'versions' | 'translate';

/**
 * A record's view as tabs: its details, its Versions panel and, for records with farmer-facing
 * text, its translations (each panel rendered only when chosen).
 */
export function RecordTabs({
  details,
  versions,
  translate,
  initial = 'details',
}: {
  details: ReactNode;
  versions: () => ReactNode;
  translate?: (() => ReactNode) | undefined;
  initial?: RecordTab | undefined;
}) {
  const [tab, setTab] = useState<RecordTab>(initial === 'translate' && !translate ? 'details' : initial);
  const base = useId();
  const tabs: Array<[RecordTab, string]> = [
    ['details', T.details],
    ['versions', T.tab],
    ...(translate ? [['translate', TRANSLATE_TEXTS.tab] as [RecordTab, string]] : []),
  ];
  const go = (step: number) => {
    const at = tabs.findIndex(([key]) => key === tab);
    const next = tabs[(at + step + tabs.length) % tabs.length]![0];
    setTab(next);
    document.getElementById(`${base}-${next}`)?.focus();
  };
  return (
    <div className="space-y-4">
      <div role="tablist" aria-label={T.title} className="flex gap-1 border-b border-slate-200">
        {tabs.map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            id={`${base}-${key}`}
            aria-selected={tab === key}
            aria-controls={`${base}-${key}-panel`}
            tabIndex={tab === key ? 0 : -1}
            onClick={() => setTab(key)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight') go(1);
              else if (e.key === 'ArrowLeft') go(-1);
            }}
            className={cn(
              '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
              tab === key ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-600 hover:text-slate-900',
            )}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-${tab}-panel`} aria-labelledby={`${base}-${tab}`}>
        {tab === 'details' ? details : tab === 'versions' ? versions() : translate?.()}
      </div>
    </div>
  );
}
