import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/login-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import type { FeatureRoutes } from './feature-routes';
import { RequirePermission, RequireSession } from './guards';
import { NAV } from './nav';
import { ShellLayout } from './shell/layout';

const features = Object.values(import.meta.glob<{ routes: FeatureRoutes }>('../features/*/routes.tsx', { eager: true })).map((m) => m.routes);
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
    element: <RequireSession><ShellLayout /></RequireSession>,
    children: [
      { index: true, element: <DashboardPage /> },
      ...screens,
      { path: '*', element: <Navigate to="/dashboard" replace /> },
    ],
  },
  { path: '*', element: <Navigate to="/login" replace /> },
]);
