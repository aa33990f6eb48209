/** Business constants, limits and timings of docs/PRODUCT.md section 9, in one place. */
export const TIMINGS = {
  chunkLoadTimeoutMs: 120_000,
  loginRedirectDelayMs: 2000,
  loginClockRefreshMs: 1000,
  logoutDelayMs: 800,
  profileLoadWaitMs: 5000,
  profileLoadPollMs: 500,
  inactivityLogoutMs: 600_000,
  /** The inactivity sign-out is announced this long before it comes (not in docs/PRODUCT.md). */
  inactivityWarningMs: 60_000,
  sessionCheckMs: 5000,
  autoInactiveDays: 8,
  uniquenessCheckDelayMs: 400,
  historyRelativeRefreshMs: 30_000,
  maintenanceToastMs: 1800,
  varietyDeleteToastMs: 1200,
  successToastMs: 2000,
  /** How often an active browser tells the server the user is still there. */
  activityHeartbeatMs: 60_000,
} as const;

export const LIMITS = {
  passwordMinLength: 8,
  passwordHashRounds: 10,
  usernameMinLength: 8,
  varietyPageSize: 20,
  /** Up to this many matches a variety search's total is exact; beyond it the server estimates. */
  varietyExactCountCap: 1_000,
  accountPageSize: 20,
  catalogPageSize: 50,
  recentActivitiesRequested: 5,
  recentActivitiesShown: 4,
  recentActivitiesFallback: 20,
  maintenanceListPreview: 5,
  editDialogImagePreview: 6,
  sidebarCollapsedWidth: 64,
  sidebarExpandedWidth: 256,
  /** Longest text field accepted by the API (guards the database against abuse). */
  maxTextLength: 10_000,
  maxShortTextLength: 300,
  jsonBodyLimitBytes: 1_048_576,
} as const;
