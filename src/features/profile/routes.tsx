import { lazy } from 'react';
import type { FeatureRoutes } from '../../app/feature-routes';
const ResetPasswordPage = lazy(() => import('./reset-password-page').then((m) => ({ default: m.ResetPasswordPage })));

/** The emailed reset link's page lives outside the shell and needs no session. */
export const routes: FeatureRoutes = {
  public: [{ path: '/reset-password', element: <ResetPasswordPage /> }],
};
