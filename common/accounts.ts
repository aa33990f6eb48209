/**
 * Texts of the Admin accounts screen (docs/PRODUCT.md sections 2, 5 and 8), word for word where
 * the department's specification gives them; the rest are chosen to match their tone. Used by the browser and the server.
 */
export const ACCOUNTS = {
  title: 'Admin Accounts',
  subtitle: 'Manage admin accounts',
  searchPlaceholder: 'Search e.g name, email, username...',
  searchLabel: 'Search admins',
  addNew: 'Add New Admin',
  empty: 'No admin found',
  loading: 'Loading admins...',
  never: '—',
  you: '(you)',
  columns: {
    fullname: 'Full Name',
    email: 'Email',
    username: 'Username',
    role: 'Role',
    status: 'Status',
    createdAt: 'Created Date',
    lastLogin: 'Last Login',
    action: 'Action',
  },
  status: {
    active: 'Active',
    restricted: 'Restricted',
    inactive: 'Inactive',
  },
  actions: {
    edit: 'Edit',
    restrict: 'Restrict',
    unrestrict: 'Unrestrict',
    delete: 'Delete',
    /** Ours: ends a sign-in lock left by wrong passwords or codes. */
    unlock: 'Unlock sign-in',
  },
  /** Ours: beside the name of an account whose sign-in is locked. */
  lockedBadge: 'Locked',
  lockedUntil: (when: string) => `Sign-in locked after wrong passwords or codes, until ${when}`,
  form: {
    addTitle: 'Add New Admin',
    editTitle: 'Edit Admin',
    fullname: 'Full Name',
    email: 'Email',
    username: 'Username',
    password: 'Password',
    role: 'Role',
    save: 'Save',
    saving: 'Saving...',
    checking: 'Checking...',
    keepPasswordHint: 'Leave blank to keep the current password.',
    roleLockedHint: 'The role cannot be changed when editing.',
  },
  confirm: {
    restrictTitle: 'Restrict account',
    restrictBody: (name: string) => `${name} will be signed out at once and cannot log in until the account is unrestricted.`,
    restrictLabel: 'Restrict',
    restricting: 'Restricting...',
    deleteTitle: 'Delete account',
    deleteBody: (name: string) => `The account of ${name} will be deleted. This cannot be undone from the console.`,
    deleteLabel: 'Delete',
    deleting: 'Deleting...',
    cannotDeleteBody: 'This account has records in the activity history, so it is kept. Restrict it instead to stop it from logging in.',
    restrictInstead: 'Restrict instead',
    close: 'Close',
  },
  messages: {
    fullnameRequired: 'Full name is required',
    usernameMin: 'Username must be at least 8 characters',
    usernameChars: "Username cannot contain spaces or '@'",
    usernameTaken: 'Username is already taken',
    usernameAvailable: 'Username is available',
    usernameUnverified: 'Could not verify username',
    emailInvalid: 'Enter a valid email address',
    emailTaken: 'Email is already in use',
    emailAvailable: 'Email is available',
    emailUnverified: 'Could not verify email',
    tooLong: 'This value is too long',
    created: 'Account created successfully!',
    updated: 'Account updated successfully!',
    deleted: 'Account deleted successfully!',
    restricted: 'Account restricted successfully!',
    unrestricted: 'Account unrestricted successfully!',
    unlocked: 'Sign-in unlocked. The account was told by email.',
    unlockError: (message: string) => `Error unlocking sign-in: ${message}`,
    saveError: (message: string) => `Error saving admin: ${message}`,
    deleteError: (message: string) => `Error deleting admin: ${message}`,
    restrictError: (message: string) => `Error restricting admin: ${message}`,
    unrestrictError: (message: string) => `Error unrestricting admin: ${message}`,
    cannotDeleteHasActivities: 'Cannot delete: account has activities',
    cannotRestrictSelf: 'You cannot restrict your own account.',
    cannotDeleteSelf: 'You cannot delete your own account.',
    cannotChangeOwnRole: 'You cannot change your own role.',
    nameMismatch: 'The text does not match the full name.',
    alreadyRestricted: 'This account is already restricted.',
    notRestricted: 'This account is not restricted.',
    /** Ours: Unlock on an account whose sign-in is not locked. */
    notLocked: 'This account is not locked.',
    passwordNotSaved: 'The password could not be secured, so nothing was saved.',
  },
  audit: {
    autoInactive: (days: number) => `Account set to inactive after ${days} days without login`,
  },
} as const;

export type AccountDisplayStatus = 'active' | 'inactive' | 'restricted';

/**
 * The Status column. docs/PRODUCT.md folds everything that is not active into 'Restricted'; we show an
 * auto-inactivated (or otherwise inactive) account as 'Inactive' so it is not mistaken for a
 * restriction. A restriction always wins.
 */
export function accountDisplayStatus(row: {
  status: string | boolean | null | undefined;
  isRestricted: boolean | number | null | undefined;
}): AccountDisplayStatus {
  if (row.isRestricted === true || row.isRestricted === 1 || row.status === 'restricted') return 'restricted';
  if (row.status === 'active' || row.status === true || row.status === 'true') return 'active';
  if (row.status === 'inactive') return 'inactive';
  return 'restricted';
}
