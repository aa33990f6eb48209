import type { FeatureRoutes } from '../../app/feature-routes';
import { AccountsPage } from './accounts-page';

/** Admin accounts at /dashboard/accounts; the sidebar entry's accounts.manage permission guards it. */
export const routes: FeatureRoutes = {
  dashboard: [{ path: 'accounts', element: <AccountsPage /> }],
};
