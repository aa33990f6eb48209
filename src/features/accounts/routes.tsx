import { lazy } from 'react';
import type { FeatureRoutes } from '../../app/feature-routes';
const AccountsPage = lazy(() => import('./accounts-page').then((m) => ({ default: m.AccountsPage })));

/** Admin accounts at /dashboard/accounts; the sidebar entry's accounts.manage permission guards it. */
export const routes: FeatureRoutes = {
  dashboard: [{ path: 'accounts', element: <AccountsPage /> }],
};
