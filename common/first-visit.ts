/**
 * A signed-in visit's first page load, made shorter on a slow link: instead of index.html the
 * server sends a copy that also names the code and data the screen will ask for, so the browser
 * fetches them while the main script is still arriving, not one round trip after it. The build
 * writes the copies (scripts/first-visit-pages.ts), the server picks one by address when the
 * readable signed-in hint cookie is present (server/app.ts), and the app's fetchers and the
 * server's routes use these same paths, so the browser hands the app the responses it already
 * has.
 */
export const SESSION_PATH = '/api/auth/session';

export const DASHBOARD_PATHS = {
  counts: '/api/dashboard/counts',
  contentWeekly: '/api/dashboard/content-weekly',
  recentActivities: '/api/dashboard/recent-activities',
  /** All diseases (the section's filter starts there); ?diseaseId=… narrows it. */
  detections: '/api/dashboard/detections',
} as const;

export interface FirstVisitPage {
  /** The copy the build writes beside index.html. */
  file: string;
  /** Source modules whose chunks (with the chunks they import) the page preloads. */
  modules: string[];
  /** GET endpoints the page preloads; the app asks each of them as soon as it starts. */
  data: string[];
}

/** Any screen below /dashboard: the signed-in frame's code and the session check. */
const SHELL: FirstVisitPage = { file: 'index.signed-in.html', modules: ['src/app/shell/layout.tsx'], data: [SESSION_PATH] };

/** /dashboard itself: the frame, the dashboard's code and the data of its sections. */
const DASHBOARD: FirstVisitPage = {
  file: 'index.dashboard.html',
  modules: [...SHELL.modules, 'src/features/dashboard/dashboard-page.tsx'],
  data: [
    ...SHELL.data,
    DASHBOARD_PATHS.counts,
    DASHBOARD_PATHS.recentActivities,
    DASHBOARD_PATHS.contentWeekly,
    DASHBOARD_PATHS.detections,
  ],
};

export const FIRST_VISIT_PAGES = [SHELL, DASHBOARD] as const;

/** The signed-in copy for an address (path without query), or null for index.html. */
export function firstVisitPage(pathname: string): FirstVisitPage | null {
  if (/^\/dashboard\/?$/.test(pathname)) return DASHBOARD;
  if (pathname.startsWith('/dashboard/')) return SHELL;
  return null;
}
