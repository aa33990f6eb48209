import { lazy } from 'react';
import { ACCOUNTS } from '../../../common/accounts';
import type { FeatureRoutes } from '../../app/feature-routes';
import { WithTrash } from '../../components/trash/with-trash';
const AccountsPage = lazy(() => import('./accounts-page').then((m) => ({ default: m.AccountsPage })));

/** Admin accounts at /dashboard/accounts; the sidebar entry's accounts.manage permission guards it. */
export const routes: FeatureRoutes = {
  dashboard: [{ path: 'accounts', element: <WithTrash collection="accounts" title={ACCOUNTS.title}><AccountsPage /></WithTrash> }],
};
