import { createBrowserRouter, Navigate } from 'react-router';
import { SHELL } from '../../common/texts';
import { ComingSoon } from '../components/ui/coming-soon';
import { LoginPage } from '../features/auth/login-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { RequirePermission, RequireSession } from './guards';
import { ShellLayout } from './shell/layout';

export const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/login" replace /> },
  { path: '/login', element: <LoginPage /> },
  {
    path: '/dashboard',
    element: <RequireSession><ShellLayout /></RequireSession>,
    children: [
      { index: true, element: <DashboardPage /> },
      { path: 'rice_varieties', element: <ComingSoon title={SHELL.nav.varieties} /> },
      { path: 'rice_pests', element: <ComingSoon title={SHELL.nav.pests} /> },
      { path: 'rice_diseases', element: <ComingSoon title={SHELL.nav.diseases} /> },
      { path: 'history_logs', element: <ComingSoon title={SHELL.nav.history} /> },
      { path: 'accounts', element: <RequirePermission permission="accounts.manage"><ComingSoon title={SHELL.nav.accounts} /></RequirePermission> },
      { path: 'file_maintenance', element: <RequirePermission permission="maintenance.manage"><ComingSoon title={SHELL.nav.maintenance} /></RequirePermission> },
      { path: '*', element: <Navigate to="/dashboard" replace /> },
    ],
  },
  { path: '*', element: <Navigate to="/login" replace /> },
]);
