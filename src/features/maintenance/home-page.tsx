import { cn } from '../../components/ui/cn';
import { Link } from 'react-router';
import { Bug, ChevronRight, Languages, Microscope, Sprout, Users, type LucideIcon } from 'lucide-react';
import { LANGUAGE_TEXTS } from '../../../common/languages';
import { MAINTENANCE } from '../../../common/maintenance';
import { can, type Permission } from '../../../common/permissions';
import { TRANSLATE_TEXTS } from '../../../common/translate-texts';
import { useSession } from '../../lib/session';
import { PageHeader } from '../../components/ui/page-header';
import { ReviewSettingsSection } from './review-settings';

export const TILES: Array<{ path: string; label: string; hint: string; icon: LucideIcon; tone: string; permission?: Permission }> = [
  { path: 'rice_variety', ...MAINTENANCE.tiles.riceVariety, icon: Sprout, tone: 'bg-green-100 text-green-700' },
  { path: 'pest', ...MAINTENANCE.tiles.pest, icon: Bug, tone: 'bg-amber-100 text-amber-700' },
  { path: 'rice_disease', ...MAINTENANCE.tiles.disease, icon: Microscope, tone: 'bg-rose-100 text-rose-700' },
  { path: 'accounts', ...MAINTENANCE.tiles.accounts, icon: Users, tone: 'bg-sky-100 text-sky-700' },
  {
    path: 'languages',
    label: LANGUAGE_TEXTS.title,
    hint: TRANSLATE_TEXTS.languages.hint,
    icon: Languages,
    tone: 'bg-violet-100 text-violet-700',
    permission: 'languages.manage',
  },
];

/** File maintenance: one tile per area whose option lists can be maintained. */
export function MaintenanceHomePage() {
  const { session } = useSession();
  return (
    <div>
      <PageHeader title={MAINTENANCE.title} subtitle={MAINTENANCE.subtitle} />
      <ul className="grid max-w-5xl grid-cols-1 gap-4 md:grid-cols-2">
        {TILES.filter((t) => !t.permission || can(session?.user.role, t.permission)).map(({ path, label, hint, icon: Icon, tone }) => (
          <li key={path}>
            <Link
              to={path}
              className={cn(
                'group flex h-full items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5',
                'shadow-sm transition hover:border-brand-500 hover:shadow-md focus-visible:outline-none',
                'focus-visible:ring-2 focus-visible:ring-brand-600',
              )}
            >
              <span className={`flex h-12 w-12 shrink-0 items-center justify-center rounded-xl ${tone}`}>
                <Icon className="h-6 w-6" aria-hidden />
              </span>
              <span className="min-w-0 flex-1">
                <span className="block font-semibold text-slate-900">{label}</span>
                <span className="mt-0.5 block text-sm text-slate-500">{hint}</span>
              </span>
              <ChevronRight className="h-5 w-5 shrink-0 text-slate-400 group-hover:text-brand-700" aria-hidden />
            </Link>
          </li>
        ))}
      </ul>
      <ReviewSettingsSection />
    </div>
  );
}
