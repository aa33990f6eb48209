import { lazy, Suspense, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { can } from '../../../common/permissions';
import { TRASH, trashEntry, type TrashCollection } from '../../../common/trash';
import { useSession } from '../../lib/session';
import { cn } from '../ui/cn';
import { Spinner } from '../ui/spinner';

const TrashPanel = lazy(() => import('./trash-panel').then((m) => ({ default: m.TrashPanel })));

/**
 * A content screen with a Trash tab (super admins only; ?view=trash). Others see the screen
 * as before. The tabs are links, so the browser's back button and a shared URL work.
 */
export function WithTrash({ collection, title, children }: { collection: TrashCollection; title: string; children: ReactNode }) {
  const { session } = useSession();
  const [params] = useSearchParams();
  if (!can(session?.user.role, 'trash.view')) return <>{children}</>;
  const inTrash = params.get('view') === 'trash';
  const tab = (active: boolean) =>
    cn(
      'rounded-t-lg border-b-2 px-4 py-2 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600',
      active ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-600 hover:text-slate-900',
    );
  return (
    <div>
      <nav aria-label={`${title} views`} className="mb-4 flex gap-1 border-b border-slate-200">
        <Link to="?" className={tab(!inTrash)} aria-current={inTrash ? undefined : 'page'}>
          {TRASH.liveTab}
        </Link>
        <Link to="?view=trash" className={tab(inTrash)} aria-current={inTrash ? 'page' : undefined}>
          {TRASH.tab}
        </Link>
      </nav>
      {inTrash ? (
        <div>
          <h1 className="mb-2 text-2xl font-bold text-slate-900">{trashEntry(collection).heading}</h1>
          <Suspense fallback={<Spinner className="h-5 w-5" label="Loading" />}>
            <TrashPanel collection={collection} />
          </Suspense>
        </div>
      ) : (
        children
      )}
    </div>
  );
}
