import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router';

/**
 * What a feature adds to the router, exported as `routes` from src/features/<area>/routes.tsx.
 * The router finds these files itself; every sidebar entry needs a screen from one of them. The
 * sidebar entry's permission guards its screen.
 */
export interface FeatureRoutes {
  /** Screens inside the shell, by path below /dashboard (for example 'rice_varieties'). */
  dashboard?: Array<{ path: string; element: ReactNode }>;
  /** Routes outside the shell, with no session needed (for example '/reset-password'). */
  public?: RouteObject[];
}
