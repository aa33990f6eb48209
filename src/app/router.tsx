import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/login-page';
import type { FeatureRoutes } from './feature-routes';
import { RequirePermission, RequireSession } from './guards';
import { NAV } from './nav';
import { preloadable } from './preloadable';
import { mayHaveSession } from '../lib/storage';

// The login screen is all a fresh visit needs; the shell (sidebar, header, menus, Account
// Settings) and the dashboard arrive after sign-in, in chunks of their own.
const shell = preloadable(() => import('./shell/layout').then((m) => m.ShellLayout));
const dashboard = preloadable(() => import('../features/dashboard/dashboard-page').then((m) => m.DashboardPage));
const ShellLayout = shell.Component;
const DashboardPage = dashboard.Component;

// A visit that may be signed in fetches the shell (and the dashboard, when it is the address)
// while its session is checked, instead of after: one round trip less on a slow connection.
// (The server's page for such a visit already asks for them: common/first-visit.ts.)
if (mayHaveSession() && location.pathname.startsWith('/dashboard')) {
  shell.preload().catch(() => undefined); // the route loads it again and shows the error
  if (/^\/dashboard\/?$/.test(location.pathname)) {
    dashboard.preload().catch(() => undefined);
    Promise.all([import('../features/dashboard/api'), import('../lib/query-client')])
      .then(([{ prefetchDashboard }, { queryClient }]) => prefetchDashboard(queryClient))
      .catch(() => undefined);
  }
}

const features = Object.values(import.meta.glob<{ routes: FeatureRoutes }>('../features/*/routes.tsx', { eager: true })).map(
  (m) => m.routes,
);
const featureScreens = new Map(features.flatMap((f) => f.dashboard ?? []).map((r) => [r.path, r.element]));

/** One child route per sidebar entry below /dashboard, guarded by the entry's permission. */
const screens: RouteObject[] = NAV.filter((entry) => entry.path !== '/dashboard').map((entry) => {
  const path = entry.path.replace('/dashboard/', '');
  const element = featureScreens.get(path);
  // Every sidebar entry has its screen; an entry without one is a mistake, caught at start.
  if (!element) throw new Error(`No feature provides the screen of ${entry.path}`);
  return { path: `${path}/*`, element: <RequirePermission permission={entry.permission}>{element}</RequirePermission> };
});

export const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/login" replace /> },
  { path: '/login', element: <LoginPage /> },
  ...features.flatMap((f) => f.public ?? []),
  {
    path: '/dashboard',
    element: (
      <RequireSession>
        <ShellLayout />
      </RequireSession>
    ),
    children: [{ index: true, element: <DashboardPage /> }, ...screens, { path: '*', element: <Navigate to="/dashboard" replace /> }],
  },
  { path: '*', element: <Navigate to="/login" replace /> },
]);
