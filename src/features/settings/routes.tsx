import type { FeatureRoutes } from '../../app/feature-routes';
import { ResetPasswordPage } from './reset-password-page';

/** The emailed reset link's page lives outside the shell and needs no session. */
export const routes: FeatureRoutes = {
  public: [{ path: '/reset-password', element: <ResetPasswordPage /> }],
};
