import { cn } from '../../components/ui/cn';
import { DropdownMenu } from 'radix-ui';
import { lazy, Suspense, useState } from 'react';
import { ChevronDown, CircleHelp, LogOut, Menu, Settings, UserCog } from 'lucide-react';
import type { SessionUser } from '../../../common/schemas/auth';
import { SHELL } from '../../../common/texts';
import { Avatar } from '../../components/ui/avatar';
import { useLocation } from 'react-router';
import { isActivePath, NAV } from '../nav';

interface HeaderProps {
  user: SessionUser;
  onOpenMobileNav(): void;
  onAccountSettings(): void;
  onLogout(): void;
}

// Help's texts arrive when it first opens.
const HelpDialog = lazy(() => import('./help-dialog').then((m) => ({ default: m.HelpDialog })));

const ITEM =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100';

export function Header({ user, onOpenMobileNav, onAccountSettings, onLogout }: HeaderProps) {
  const { pathname } = useLocation();
  const page = NAV.find((entry) => isActivePath(entry.path, pathname));
  const [helpOpen, setHelpOpen] = useState(false);
  return (
    <header className="sticky top-0 z-30 flex h-16 items-center justify-between border-b border-slate-200 bg-white/90 px-4 backdrop-blur lg:px-6">
      <button
        type="button"
        onClick={onOpenMobileNav}
        aria-label={SHELL.openMenu}
        className="rounded-md p-2 text-slate-600 hover:bg-slate-100 lg:hidden"
      >
        <Menu className="h-5 w-5" />
      </button>
      {/* On phones the sidebar is folded away: the header names the screen. */}
      <p className="min-w-0 flex-1 truncate px-2 text-base font-semibold text-slate-900 lg:hidden" data-testid="header-page">
        {page?.label}
      </p>
      <div className="hidden flex-1 lg:block" />
      <button
        type="button"
        onClick={() => setHelpOpen(true)}
        className={cn(
          'mr-2 flex items-center gap-1.5 rounded-lg px-2 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900',
          'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600',
        )}
      >
        <CircleHelp className="h-5 w-5" aria-hidden />
        <span className="sr-only sm:not-sr-only">{SHELL.help}</span>
      </button>
      {helpOpen && (
        <Suspense fallback={null}>
          <HelpDialog open onOpenChange={setHelpOpen} />
        </Suspense>
      )}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger
          className={cn(
            'flex items-center gap-3 rounded-lg px-2 py-1.5 hover:bg-slate-100',
            'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600',
          )}
          data-testid="account-menu"
        >
          <Avatar name={user.fullname} photoURL={user.photoURL} />
          {/* The visible name and role are the button's name (on a phone they are read, not shown). */}
          <span className="sr-only text-left sm:not-sr-only sm:block">
            <span className="block text-sm font-semibold text-slate-900" data-testid="header-name">
              {user.fullname}
            </span>
            <span className="block text-xs text-slate-500" data-testid="header-role">
              {SHELL.roleLabel[user.role]}
            </span>
          </span>
          <ChevronDown className="h-4 w-4 text-slate-400" aria-hidden />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            className="z-50 min-w-52 rounded-xl border border-slate-200 bg-white p-1 shadow-lg"
          >
            <DropdownMenu.Item className={ITEM} onSelect={onAccountSettings}>
              <UserCog className="h-4 w-4" aria-hidden /> {SHELL.accountSettings}
            </DropdownMenu.Item>
            <DropdownMenu.Item className={ITEM}>
              <Settings className="h-4 w-4" aria-hidden /> {SHELL.systemSettings}
            </DropdownMenu.Item>
            <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
            <DropdownMenu.Item className={`${ITEM} text-red-600`} onSelect={onLogout}>
              <LogOut className="h-4 w-4" aria-hidden /> {SHELL.logout}
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </header>
  );
}
