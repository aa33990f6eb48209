import { lazy } from 'react';
import type { FeatureRoutes } from '../../app/feature-routes';
// The screen, its texts and the Trash tab load on the first visit, not with the login page.
const AccountsScreen = lazy(() =>
  Promise.all([import('./accounts-page'), import('../../../common/accounts'), import('../../components/trash/with-trash')]).then(
    ([page, { ACCOUNTS }, { WithTrash }]) => ({
      default: () => (
        <WithTrash collection="accounts" title={ACCOUNTS.title}>
          <page.AccountsPage />
        </WithTrash>
      ),
    }),
  ),
);
const InvitationPage = lazy(() => import('./invitation-page').then((m) => ({ default: m.InvitationPage })));

/**
 * Admin accounts at /dashboard/accounts; the sidebar entry's accounts.manage permission guards it.
 * An invitation link's page lives outside the shell and needs no session.
 */
export const routes: FeatureRoutes = {
  dashboard: [{ path: 'accounts', element: <AccountsScreen /> }],
  public: [{ path: '/invitation', element: <InvitationPage /> }],
};
