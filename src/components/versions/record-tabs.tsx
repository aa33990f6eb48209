import { useId, useState, type ReactNode } from 'react';
import { VERSION_TEXTS as T } from '../../../common/versions';
import { cn } from '../ui/cn';

/** A record's view as two tabs: its details and its Versions panel (rendered only when chosen). */
export function RecordTabs({ details, versions, initial = 'details' }: { details: ReactNode; versions: () => ReactNode; initial?: 'details' | 'versions' }) {
  const [tab, setTab] = useState(initial);
  const base = useId();
  const tabs = [['details', T.details], ['versions', T.tab]] as const;
  return (
    <div className="space-y-4">
      <div role="tablist" aria-label={T.title} className="flex gap-1 border-b border-slate-200">
        {tabs.map(([key, label]) => (
          <button key={key} type="button" role="tab" id={`${base}-${key}`} aria-selected={tab === key} aria-controls={`${base}-${key}-panel`}
            tabIndex={tab === key ? 0 : -1} onClick={() => setTab(key)}
            onKeyDown={(e) => { if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') { const next = tab === 'details' ? 'versions' : 'details'; setTab(next); document.getElementById(`${base}-${next}`)?.focus(); } }}
            className={cn('-mb-px border-b-2 px-3 py-2 text-sm font-medium', tab === key ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-600 hover:text-slate-900')}>
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-${tab}-panel`} aria-labelledby={`${base}-${tab}`}>
        {tab === 'details' ? details : versions()}
      </div>
    </div>
  );
}
