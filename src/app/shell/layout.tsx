import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router';
import { APP } from '../../../common/texts';
import { Spinner } from '../../components/ui/spinner';
import { QueryProvider } from '../../lib/query-client';
import { useSession } from '../../lib/session';
import { readPreference, SIDEBAR_COLLAPSED, writePreference } from '../../lib/storage';
import { Header } from './header';
import { IdleWarning } from './idle-warning';
import { LogoutDialog } from './logout-dialog';
import { Sidebar } from './sidebar';

// Account Settings (with the photo cropper) loads when first opened, not with every screen.
const AccountSettingsModal = lazy(() =>
  import('../../features/profile/account-settings-modal').then((m) => ({ default: m.AccountSettingsModal })),
);

const readCollapsed = () => readPreference(SIDEBAR_COLLAPSED) === '1';

/** The signed-in frame: sidebar, header, the routed screen and the footer. */
export function ShellLayout() {
  const { session, logout } = useSession();
  const [collapsed, setCollapsed] = useState(readCollapsed);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [logoutOpen, setLogoutOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // Stays mounted once opened, so the dialog can animate closed.
  const [settingsUsed, setSettingsUsed] = useState(false);
  // "/" puts the cursor in the screen's search box, as in the tools people know; not while typing or in a dialog.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"]')) return;
      if (document.querySelector('[role="dialog"]')) return;
      const search = document.querySelector<HTMLInputElement>('main input[data-page-search]');
      if (!search) return;
      e.preventDefault();
      search.focus();
      search.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!session) return null;

  function toggleCollapsed() {
    setCollapsed((c) => {
      writePreference(SIDEBAR_COLLAPSED, c ? '0' : '1');
      return !c;
    });
  }

  return (
    <QueryProvider>
      <div className="flex min-h-screen bg-slate-50">
        <Sidebar
          role={session.user.role}
          collapsed={collapsed}
          onToggleCollapsed={toggleCollapsed}
          mobileOpen={mobileOpen}
          onCloseMobile={() => setMobileOpen(false)}
        />
        <div className="flex min-w-0 flex-1 flex-col">
          <Header
            user={session.user}
            onOpenMobileNav={() => setMobileOpen(true)}
            onAccountSettings={() => {
              setSettingsUsed(true);
              setSettingsOpen(true);
            }}
            onLogout={() => setLogoutOpen(true)}
          />
          {/* At least a screen tall, so the footer starts below the fold and does not jump down
              as a screen's sections arrive (a layout shift on every first visit). */}
          <main className="min-h-dvh flex-1 p-4 lg:p-8">
            {/* Each screen's code arrives on first visit (React.lazy in the feature's routes). */}
            <Suspense
              fallback={
                <div className="flex justify-center p-12">
                  <Spinner className="h-8 w-8" />
                </div>
              }
            >
              <Outlet />
            </Suspense>
          </main>
          <footer className="border-t border-slate-200 px-6 py-4 text-center text-xs text-slate-500">
            <p>{APP.departmentCredit}</p>
            <p>{APP.copyright}</p>
          </footer>
        </div>
        <LogoutDialog open={logoutOpen} onOpenChange={setLogoutOpen} onConfirm={() => logout()} />
        <IdleWarning />
        {settingsUsed && (
          <Suspense fallback={null}>
            <AccountSettingsModal open={settingsOpen} onOpenChange={setSettingsOpen} />
          </Suspense>
        )}
      </div>
    </QueryProvider>
  );
}
