import { startTransition, useEffect, useState } from 'react';
import { Bug, Clock, Microscope, Sprout, Users, type LucideIcon } from 'lucide-react';
import { relativeTime } from '../../../common/activity';
import { COLLECTION_NAMES, COLLECTIONS, type CollectionEntry } from '../../../common/collections';
import { manilaMoment } from '../../../common/manila-time';
import { DASHBOARD } from '../../../common/texts';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { useSession } from '../../lib/session';
import { useDashboardCounts, useRecentActivities } from './api';
import { ContentChart } from './content-chart';
import { DetectionsSection } from './detections';
import { BackupNotice } from './backup-notice';
import { TranslationsSection } from './translations-section';
import { can } from '../../../common/permissions';

function StatCard({ label, value, icon: Icon, tone }: { label: string; value: number | undefined; icon: LucideIcon; tone: string }) {
  return (
    <div className="flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <span className={`flex h-12 w-12 items-center justify-center rounded-xl ${tone}`}>
        <Icon className="h-6 w-6" aria-hidden />
      </span>
      <div>
        <p className="text-sm text-slate-500">{label}</p>
        <p className="text-2xl font-bold tabular-nums text-slate-900" data-testid={`count-${label}`}>
          {value ?? '–'}
        </p>
      </div>
    </div>
  );
}

const TYPE_ICON: Record<CollectionEntry['activity'], LucideIcon> = { pest: Bug, disease: Microscope, variety: Sprout, admin: Users };
const TYPE_TONE: Record<CollectionEntry['activity'], string> = {
  variety: 'bg-green-100 text-green-700',
  pest: 'bg-amber-100 text-amber-700',
  disease: 'bg-rose-100 text-rose-700',
  admin: 'bg-sky-100 text-sky-700',
};

export function DashboardPage() {
  const { session } = useSession();
  const counts = useDashboardCounts();
  const recent = useRecentActivities();
  const [now, setNow] = useState(() => Date.now());
  // The chart's bars and Detections sit below the cards: built after them, in slices, so a
  // slow phone shows the counts (and the chart's heading) first and stays responsive.
  const [below, setBelow] = useState(false);
  useEffect(() => {
    startTransition(() => setBelow(true));
  }, []);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(t);
  }, []);

  return (
    <div>
      <PageHeader title={DASHBOARD.title} subtitle={session ? `Welcome, ${session.user.fullname}` : undefined} />
      <section aria-label="Overview" className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {COLLECTION_NAMES.map((name) => {
          const { activity, dashboard } = COLLECTIONS[name];
          return (
            <StatCard
              key={name}
              label={dashboard.card}
              value={counts.data?.[dashboard.count]}
              icon={TYPE_ICON[activity]}
              tone={TYPE_TONE[activity]}
            />
          );
        })}
      </section>

      <section className="mt-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm" aria-labelledby="recent-heading">
        <h2 id="recent-heading" className="text-lg font-semibold text-slate-900">
          {DASHBOARD.recentActivities}
        </h2>
        <p className="mb-4 text-sm text-slate-500">{DASHBOARD.recentActivitiesScope}</p>
        {recent.isLoading ? (
          <Spinner />
        ) : !recent.data || recent.data.length === 0 ? (
          <p className="text-sm text-slate-500">{DASHBOARD.noRecentActivities}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {recent.data.map((item) => {
              const Icon = item.type ? TYPE_ICON[item.type] : Clock;
              return (
                <li key={item.id} className="flex items-center gap-3 py-3">
                  <span className="flex h-9 w-9 items-center justify-center rounded-full bg-slate-100 text-slate-600">
                    <Icon className="h-4 w-4" aria-hidden />
                  </span>
                  <span className="flex-1 text-sm text-slate-800">{item.text}</span>
                  <time className="text-xs text-slate-500" dateTime={item.timestamp} title={manilaMoment(Date.parse(item.timestamp))}>
                    {relativeTime(item.timestamp, now)}
                  </time>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {below && session && can(session.user.role, 'maintenance.manage') && <BackupNotice now={now} />}
      <ContentChart drawn={below} />
      {below && <TranslationsSection />}
      {below && <DetectionsSection />}
    </div>
  );
}
