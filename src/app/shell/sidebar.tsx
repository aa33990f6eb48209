import { Link, useLocation } from 'react-router';
import { ChevronsLeft, ChevronsRight, X } from 'lucide-react';
import { can, type Role } from '../../../common/permissions';
import { LIMITS } from '../../../common/limits';
import { APP, SHELL } from '../../../common/texts';
import { cn } from '../../components/ui/cn';
import { NAV, isActivePath } from '../nav';
import { useReviewCount } from '../../lib/review';
import { navIcon } from './nav-icons';

interface SidebarProps {
  role: Role;
  collapsed: boolean;
  onToggleCollapsed(): void;
  mobileOpen: boolean;
  onCloseMobile(): void;
}

function SidebarBody({ role, collapsed, onNavigate }: { role: Role; collapsed: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Main" className="flex-1 space-y-1 overflow-y-auto px-2 py-4">
      {NAV.filter((entry) => can(role, entry.permission)).map((entry) => {
        const active = isActivePath(entry.path, pathname);
        const Icon = navIcon(entry.path);
        return (
          <Link
            key={entry.path}
            to={entry.path}
            onClick={onNavigate}
            aria-current={active ? 'page' : undefined}
            title={collapsed ? entry.label : undefined}
            className={cn(
              'flex items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium transition-colors',
              active ? 'bg-white/15 text-white' : 'text-brand-100 hover:bg-white/10 hover:text-white',
              collapsed && 'relative justify-center px-0',
            )}
          >
            <Icon className="h-5 w-5 shrink-0" aria-hidden />
            <span className={cn(collapsed && 'sr-only')}>{entry.label}</span>
            {entry.path === REVIEW_PATH && <ReviewCount collapsed={collapsed} />}
          </Link>
        );
      })}
    </nav>
  );
}

const REVIEW_PATH = '/dashboard/review';

/** The Review entry's count: changes waiting for this account's review and its own sent back (live: topic 'review'). */
function ReviewCount({ collapsed }: { collapsed: boolean }) {
  const count = useReviewCount().data;
  const n = count ? count.forMe + count.returned : 0;
  if (n === 0) return null;
  return (
    <span
      data-testid="review-count"
      title={SHELL.reviewCount(n)}
      className={cn(
        'rounded-full bg-amber-300 px-2 py-0.5 text-xs font-semibold text-slate-900',
        collapsed ? 'absolute right-1 top-1 px-1.5' : 'ml-auto',
      )}
    >
      <span aria-hidden>{n}</span>
      <span className="sr-only"> {SHELL.reviewCount(n)}</span>
    </span>
  );
}

function Brand({ collapsed }: { collapsed: boolean }) {
  return (
    <div className={cn('flex items-center gap-3 px-4 py-5', collapsed && 'justify-center px-0')}>
      <img src="/logo.svg" alt="" className="h-9 w-9 shrink-0" />
      {!collapsed && <span className="text-lg font-bold text-white">{APP.name}</span>}
    </div>
  );
}

/** Collapsible on large screens (64 / 256 px), a slide-over on small ones. */
export function Sidebar({ role, collapsed, onToggleCollapsed, mobileOpen, onCloseMobile }: SidebarProps) {
  const width = collapsed ? LIMITS.sidebarCollapsedWidth : LIMITS.sidebarExpandedWidth;
  return (
    <>
      {/* The column fills the page's height; the menu inside it stays in view while the page scrolls. */}
      <div className="hidden shrink-0 bg-brand-900 lg:block">
        <aside data-testid="sidebar" style={{ width }} className="sticky top-0 flex h-screen flex-col transition-[width] duration-200">
          <Brand collapsed={collapsed} />
          <SidebarBody role={role} collapsed={collapsed} />
          {/* The version is text beside the button, not inside it: a control's name holds its visible text. */}
          <div className={cn('flex items-center gap-2 border-t border-white/10 p-2', collapsed ? 'justify-center' : 'justify-between')}>
            <p className={cn('px-3 text-sm text-brand-100', collapsed && 'sr-only')}>{APP.version}</p>
            <button
              type="button"
              onClick={onToggleCollapsed}
              aria-label={collapsed ? SHELL.expandSidebar : SHELL.collapseSidebar}
              title={collapsed ? SHELL.expandSidebar : SHELL.collapseSidebar}
              className="rounded-lg p-2 text-brand-100 hover:bg-white/10"
            >
              {collapsed ? <ChevronsRight className="h-5 w-5" /> : <ChevronsLeft className="h-5 w-5" />}
            </button>
          </div>
        </aside>
      </div>

      {mobileOpen && (
        <div className="fixed inset-0 z-40 lg:hidden" role="dialog" aria-modal="true" aria-label="Navigation">
          <div className="absolute inset-0 bg-slate-900/50" onClick={onCloseMobile} aria-hidden />
          <aside className="absolute inset-y-0 left-0 flex w-64 flex-col bg-brand-900 shadow-xl">
            <div className="flex items-center justify-between pr-2">
              <Brand collapsed={false} />
              <button
                type="button"
                onClick={onCloseMobile}
                aria-label={SHELL.closeMenu}
                className="rounded-md p-2 text-brand-100 hover:bg-white/10"
              >
                <X className="h-5 w-5" />
              </button>
            </div>
            <SidebarBody role={role} collapsed={false} onNavigate={onCloseMobile} />
            <p className="border-t border-white/10 px-4 py-3 text-sm text-brand-100">{APP.version}</p>
          </aside>
        </div>
      )}
    </>
  );
}
