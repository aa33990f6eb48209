import { COLLECTION_NAMES, COLLECTIONS, type CollectionEntry } from './collections.js';

const byCollection = (pick: (c: CollectionEntry) => string): Record<string, string> =>
  Object.fromEntries(COLLECTION_NAMES.map((name) => [name, pick(COLLECTIONS[name])]));

/**
 * Every user-facing text of the product's screens (docs/PRODUCT.md), in one place, word for word
 * as the department's specification gives them. The browser renders these; the server uses
 * them in its error messages.
 */
export const APP = {
  name: 'PalaYan Admin',
  version: 'Version 1.0.0',
  departmentCredit: 'Provincial Agriculture Office of Tarlac · Department of Agriculture',
  copyright: '© 2025 PalaYan Team. All rights reserved.',
} as const;

export const LOGIN = {
  usernameLabel: 'Username or email',
  passwordLabel: 'Password',
  forgotPassword: 'Forgot password?',
  submit: 'Login',
  submitting: 'Logging in...',
  showPassword: 'Show password',
  hidePassword: 'Hide password',
  usernameRequired: 'Please enter your username or email',
  passwordRequired: 'Please enter your password',
  invalidCredentials: 'Invalid credentials. Please try again.',
  genericError: 'Something went wrong. Please try again later.',
  deletedAccount: 'This account has been deleted.',
  restrictedAccount: 'Your account is restricted. Please contact an administrator.',
  defaultRestricted: 'Your account is currently restricted.',
  blockedTitle: 'Login blocked',
  autoLogoutTitle: 'Auto logout',
  autoLogoutInactivity: 'You were logged out due to inactivity.',
  autoLogoutSessionEnded: 'Your session has ended. Please log in again.',
  autoLogoutSignedOut: 'This session was signed out from another session. Please log in again.',
  ok: 'OK',
  tooManyAttempts: 'Too many login attempts. Please wait a moment and try again.',
  /** Shown to whoever signs in to an account locked by repeated wrong passwords. */
  locked: (minutes: number) =>
    `Too many attempts. This account is locked for ${minutes} minute${minutes === 1 ? '' : 's'}; try again then.`,
  /** Ours: what the owner of a locked account can do at once, from anywhere. */
  lockedHelp:
    'If this is your account, sign in now with your password and a code from your authenticator app, or ' +
    'open the unlock link in the email we sent you, or use Forgot password to set a new one.',
  unlockLinkHelp: 'Sign in with your password to end the lock on your account. This link works once, within an hour of the email.',
  unlockCodeLabel: 'Code from your authenticator app',
  invalidUnlock: 'The password, the code or the unlock link is not right. An unlock link works once, within an hour.',
} as const;

export const SHELL = {
  nav: {
    dashboard: 'Dashboard',
    varieties: COLLECTIONS.rice_seed_varieties.nav.label,
    pests: COLLECTIONS.rice_local_pests.nav.label,
    diseases: COLLECTIONS.rice_local_diseases.nav.label,
    accounts: COLLECTIONS.accounts.nav.label,
    history: 'History Logs',
    /** LANGUAGE_TEXTS.completeness (common/languages.ts), here so the login bundle need not hold the languages' texts. */
    translations: 'Translations',
    maintenance: 'File Maintenance',
    /** MODEL_TEXTS.nav (common/models.ts), here so the login bundle need not hold the models' texts. */
    scannerModels: 'Scanner models',
    /** REVIEW_TEXTS.title (common/review.ts), here so the login bundle need not hold the review's texts. */
    review: 'Review',
  },
  /** The Review entry's count: changes waiting for this account's review, and its own sent back. */
  reviewCount: (n: number) => `${n} waiting for you`,
  accountSettings: 'Account Settings',
  systemSettings: 'System Settings',
  logout: 'Logout',
  logoutConfirm: 'Are you sure you want to logout?',
  cancel: 'Cancel',
  loggingOut: 'Logging out...',
  roleLabel: { SYSTEM_ADMIN: 'super admin', ADMIN: 'admin' },
  comingSoon: 'This screen is coming soon.',
  /** A minute before the inactivity logout (not in docs/PRODUCT.md). */
  idleWarning: {
    title: 'Are you still there?',
    text: (seconds: number) => `You will be logged out in ${seconds} ${seconds === 1 ? 'second' : 'seconds'} due to inactivity.`,
    stay: 'Stay signed in',
  },
  collapseSidebar: 'Collapse sidebar',
  expandSidebar: 'Expand sidebar',
  /** The header's button that opens Help (HELP_TEXTS, common/help-texts.ts). */
  help: 'Help',
  openMenu: 'Open menu',
  closeMenu: 'Close menu',
} as const;

export const DASHBOARD = {
  title: 'Dashboard',
  recentActivities: 'Recent Activities',
  /** Under the heading: the list is the signed-in user's own; everyone's is in History Logs. */
  recentActivitiesScope: "Your own latest actions. Everyone's are in History Logs.",
  noRecentActivities: 'No recent activities yet.',
  content: {
    title: 'Content added and changed',
    subtitle: 'Rice varieties, pests and diseases per week, last 12 weeks',
    added: 'Added',
    changed: 'Changed',
    week: 'Week of',
    showNumbers: 'Show the numbers',
    loadFailed: 'The weekly content chart could not be loaded.',
    chartLabel: (added: number, changed: number) =>
      `Bar chart: ${added} added and ${changed} changed in the last 12 weeks. The numbers per week are in the table below.`,
  },
} as const;

/** Activity kinds and the 'Unknown' default name (docs/PRODUCT.md section 9). */
export const ACTIVITY = {
  unknownName: 'Unknown',
  /** Each collection's kind (common/collections.ts), and the word for anything else. */
  kinds: { ...byCollection((c) => c.kind), other: 'item' } as Record<string, string> & { other: string },
} as const;

/**
 * History's collection labels: the collections' (common/collections.ts), and the screens whose
 * changes are audited under a name of their own, as their pages are named.
 */
export const COLLECTION_LABELS: Record<string, string> = {
  ...byCollection((c) => c.label),
  maintenance: 'File Maintenance',
  languages: 'Languages',
  translations: 'Translations',
  review_settings: 'Review settings',
  audit_logs: 'History Logs',
  import: 'Import',
};

export const ERRORS = {
  unauthenticated: 'Your session has ended. Please log in again.',
  forbidden: 'You do not have permission to do that.',
  notFound: 'Not found.',
  malformedJson: 'The request body is not valid JSON.',
  payloadTooLarge: 'The request is too large.',
  validation: 'Some fields are not valid.',
  internal: 'Something went wrong. Please try again later.',
  databaseDown: 'The database is not answering. Your change was not saved; try again in a minute.',
  /** Ours, in the tone of the database's. */
  storageDown: 'Photo storage is not answering. Your change was not saved; try again in a minute.',
  diskFull: "The server's disk is full. Your change was not saved; tell your system administrator.",
  conflict: 'This record was changed by someone else since you opened it.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  noUserId: 'No user id',
  crossSite: 'This request came from another site and was refused.',
  nulCharacter: 'Text must not contain NUL characters.',
  malformedUpload: 'The upload was cut off or is not a valid form. Please try again.',
} as const;

/** An uploaded file's reader (server/platform/parsing): refusals that name the file, not its content. */
export const FILE_READ_TEXTS = {
  busy: 'The server is reading other files just now. Try again in a few seconds.',
  tooSlow: (ms: number) =>
    `This file takes too long to read (over ${Math.round(ms / 1000)} seconds), so it was not read. Check ` +
    `that it is the file you meant, or split it into smaller files.`,
  tooMuchMemory:
    'This file needs more memory to read than the server gives one file, so it was not read. Check that ' +
    'it is the file you meant, or split it into smaller files.',
  stopped: 'The reader stopped on this file, so it was not read. Check that it is the file you meant, and save it again.',
  unreadable: 'This file could not be read. Check that it is the file you meant, and save it again.',
} as const;

/** Paged lists: which rows the page shows of how many (not in docs/PRODUCT.md). */
export const LIST_TEXTS = {
  filters: 'Filters',
  /** The phone's button that shows the filters, with how many are set. */
  filterButton: (n: number) => (n > 0 ? `Filters (${n})` : 'Filters'),
  /** A sortable heading's tooltip. */
  sortHint: (label: string) => `Sort by ${label}`,
  showing: (from: number, to: number, total: number, exact: boolean) =>
    `Showing ${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')} of ${exact ? '' : 'about '}${total.toLocaleString('en-US')}`,
} as const;

/** A file chosen with a button or dropped (not in docs/PRODUCT.md). */
export const FILE_PICKER_TEXTS = {
  choose: 'Choose a file',
  another: 'Choose another',
  orDrop: 'or drop it here',
} as const;
