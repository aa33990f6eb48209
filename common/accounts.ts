import { can, type Permission, type Role } from './permissions.js';

/** Ours: how long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;

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
    /** Ours: the sessions button's visible word on phones (its name says whose: SESSIONS.viewSessionsLabel). */
    sessions: 'Sessions',
    /** Ours: a new invitation link for an account that has no password yet. */
    reinvite: 'New invitation link',
  },
  /** Ours: a row action's name and tooltip, saying which account it acts on. */
  actionOn: (action: string, name: string) => `${action}: ${name}`,
  /** Ours: beside the name of an account nobody can sign in to yet (invited, or back from the trash). */
  noPasswordBadge: 'No password',
  noPasswordHint: 'No password yet: it waits for its invitation link, or for a password typed in Edit.',
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
    /** Ours: a new invitation for an account that has a password. */
    hasPassword: 'This account already has a password. Type a new one in Edit instead.',
    reinviteError: (message: string) => `Error making the invitation link: ${message}`,
  },
  /** Ours: Add New Admin's choice between a typed password and an invitation link. */
  invite: {
    methodLegend: 'How will they get their password?',
    byLink: 'Send an invitation link',
    byLinkHint: `They choose their own password on a page the link opens. The link works once, within ${INVITATION_TTL_MS / 86_400_000} days.`,
    typed: 'Type a password for them',
    typedHint: 'You pass the password on to them yourself.',
    submit: 'Create and invite',
    sentTitle: 'Invitation sent',
    sentBody: (name: string, email: string, until: string) =>
      `The account of ${name} was created and an invitation was emailed to ${email}. The link works once, until ${until}.`,
    linkTitle: 'Copy the invitation link',
    linkBody: (name: string, until: string) =>
      `The account of ${name} was created. This server sends no email, so copy this link and give it to them yourself. ` +
      `It is shown only this once, and works once, until ${until}.`,
    mailFailedBody: (name: string, until: string) =>
      `The account of ${name} was created, but the invitation email could not be sent. Copy this link and give it to them yourself. ` +
      `It is shown only this once, and works once, until ${until}.`,
    linkLabel: 'Invitation link',
    copy: 'Copy link',
    copied: 'Link copied.',
    copyFailed: 'Select the link and copy it yourself.',
    done: 'Done',
    resendTitle: 'New invitation link',
    resendBody: (name: string) => `Make a new invitation link for ${name}, to choose a password with. Any earlier link stops working.`,
    resendSubmit: 'Make new link',
    abilitiesTitle: (role: string) => `What the ${role} role can do`,
    cannotTitle: 'Cannot',
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

/** Ours: the page an invitation link opens, and its email. */
export const INVITATION = {
  title: 'Set your password',
  intro: (name: string, username: string) =>
    `Welcome, ${name}. Choose the password of your PalaYan Admin account. You log in with the username ${username} or your email.`,
  checking: 'Checking your invitation...',
  invalid: 'This invitation link is invalid, already used or expired. Ask your system administrator for a new one.',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  submit: 'Set password',
  busy: 'Please wait...',
  done: 'Your password is set. You can now log in with it.',
  toLogin: 'Go to login',
  genericError: 'Something went wrong',
  emailSubject: 'PalaYan Admin: your new account',
} as const;

/**
 * The role table of common/permissions.ts in plain words, for Add New Admin. Each permission has
 * its sentence, or null when another permission of its group says it; a new permission must be
 * given one here (the type asks for every permission).
 */
const ABILITY_WORDS = {
  'dashboard.view': 'See the dashboard and its counts',
  'content.view': null,
  'content.create': null,
  'content.update': 'Add, edit and delete rice varieties, pests and diseases',
  'content.delete': null,
  'history.view': 'Read the history of their own changes',
  'history.viewAll': "Read everyone's history, sign-ins included, and check that it was not tampered with",
  'history.viewSecurityActions': null,
  'history.verify': null,
  'accounts.manage': 'Add, edit, restrict and delete admin accounts',
  'maintenance.manage': 'Change the option lists in File Maintenance',
  'trainingData.export': 'Download the photo training sets',
  'secondFactor.manageOwn': 'Turn on two-step sign-in for their own account',
  'trash.view': 'Open the Trash and put deleted items back',
  'trash.restore': null,
  'scannerModels.manage': 'Upload and publish scanner models',
  'review.approve': "Approve others' changes before farmers see them, and choose which lists need review",
  'review.settings': null,
  'review.breakGlass': null,
  'languages.manage': "Manage the farmers' languages and translations",
} as const satisfies Record<Permission, string | null>;

/** What a role can and cannot do, in plain words, read from the role table. */
export function roleAbilities(role: Role): { can: string[]; cannot: string[] } {
  const out = { can: [] as string[], cannot: [] as string[] };
  for (const [permission, words] of Object.entries(ABILITY_WORDS) as Array<[Permission, string | null]>) {
    if (words) (can(role, permission) ? out.can : out.cannot).push(words);
  }
  return out;
}
