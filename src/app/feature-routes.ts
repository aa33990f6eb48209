import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';

/**
 * What a feature adds to the router, exported as `routes` from src/features/<area>/routes.tsx.
 * The router finds these files itself; a screen of the sidebar that no feature provides yet
 * shows the "coming soon" panel. The sidebar entry's permission guards its screen.
 */
export interface FeatureRoutes {
  /** Screens inside the shell, by path below /dashboard (for example 'rice_varieties'). */
  dashboard?: Array<{ path: string; element: ReactNode }>;
  /** Routes outside the shell, with no session needed (for example '/reset-password'). */
  public?: RouteObject[];
}
