import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { can, type Permission } from '../../common/permissions';
import { FullPageSpinner } from '../components/ui/spinner';
import { useSession } from '../lib/session';

/** Everything under /dashboard needs a session; while it loads a spinner shows. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { status } = useSession();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'anonymous') return <Navigate to="/login" replace />;
  return <>{children}</>;
}

/** Screens a role may not use redirect to /dashboard (docs/PRODUCT.md section 2). */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  const { session } = useSession();
  if (!session) return <Navigate to="/login" replace />;
  if (!can(session.user.role, permission)) return <Navigate to="/dashboard" replace />;
  return <>{children}</>;
}
