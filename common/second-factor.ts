/**
 * The second factor (shown as 'Two-step sign-in'): texts and limits, shared by the browser and the server.
 * docs/PRODUCT.md gives none of these; they follow its tone ("ours").
 */
export const SECOND_FACTOR_LIMITS = {
  /** Recovery codes made at a time; each works once. */
  recoveryCodeCount: 10,
  /** Characters of a recovery code (shown as two groups of five). */
  recoveryCodeLength: 10,
  /** Letters and digits of recovery codes: no 0/o, 1/l/i, so they can be read aloud and typed. */
  recoveryCodeAlphabet: 'abcdefghjkmnpqrstuvwxyz23456789',
  /** The step between password and session (and a login enrolment) must end within this time. */
  challengeTtlMs: 5 * 60_000,
  /** Turning it on in Account Settings: scanning and confirming must end within this time. */
  setupTtlMs: 10 * 60_000,
  /** Codes of the step before and after the current one are accepted (clock drift), in seconds. */
  epochToleranceSeconds: 30,
  codeDigits: 6,
  /** The issuer name authenticator apps show beside the account. */
  issuer: 'PalaYan Admin',
} as const;

export const SECOND_FACTOR = {
  // Account Settings
  section: 'Two-step sign-in',
  intro: 'After your password, sign-in asks for a 6-digit code from an authenticator app on your phone.',
  statusOn: 'On',
  statusOff: 'Off',
  statusOnSince: (date: string) => `On since ${date}`,
  codesLeft: (n: number) => `${n} recovery code${n === 1 ? '' : 's'} left`,
  requiredForRole: 'Two-step sign-in is required for your role.',
  turnOn: 'Turn on',
  turnOff: 'Turn off',
  newCodes: 'Make new recovery codes',
  scanTitle: 'Scan this code with your authenticator app',
  scanHint: 'Use Google Authenticator, Microsoft Authenticator, FreeOTP or any app for time-based codes.',
  manualKey: 'Or enter this key by hand',
  qrAlt: 'QR code for your authenticator app',
  confirmCode: 'Code from the app',
  confirm: 'Confirm',
  confirming: 'Checking...',
  cancel: 'Cancel',
  proofIntro: 'Enter your password and a code from your authenticator app (or a recovery code).',
  turnOnIntro: 'To turn on two-step sign-in, enter your current password.',
  continueSetup: 'Continue',
  password: 'Password',
  codesTitle: 'Your recovery codes',
  codesIntro: 'Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.',
  copy: 'Copy',
  copied: 'Copied.',
  download: 'Download',
  codesFileName: 'palayan-recovery-codes.txt',
  done: 'Done',
  turnedOn: 'Two-step sign-in is on.',
  turnedOff: 'Two-step sign-in is off.',
  codesMade: 'New recovery codes made; the old ones no longer work.',
  // Login
  verifyTitle: 'Two-step sign-in',
  verifyIntro: 'Enter the 6-digit code from your authenticator app.',
  recoveryIntro: 'Enter one of your recovery codes. Each works once.',
  codeLabel: 'Code',
  recoveryCodeLabel: 'Recovery code',
  useRecoveryCode: 'Use a recovery code',
  useAppCode: 'Use a code from the app',
  verify: 'Verify',
  verifying: 'Verifying...',
  backToLogin: 'Back to login',
  enrollTitle: 'Set up two-step sign-in',
  enrollIntro: 'Your account needs two-step sign-in. Scan the code with an authenticator app, then enter the code it shows.',
  continue: 'Continue',
  // Accounts screen
  reset: 'Reset two-step sign-in',
  resetConfirm: (name: string) =>
    `Reset two-step sign-in of ${name}? They sign in with their password only (or set it up again if it is required) and their recovery codes stop working.`,
  resetDone: 'Two-step sign-in was reset.',
  badge: '2-step',
  // Errors
  codeRequired: 'Please enter the code.',
  invalidCode: 'That code is not right. Please try again.',
  passwordRequired: 'Please enter your password.',
  expired: 'Your sign-in took too long. Please enter your password again.',
  setupExpired: 'The setup has expired. Please start again.',
  alreadyOn: 'Two-step sign-in is already on.',
  notOn: 'Two-step sign-in is not on for this account.',
  resetOwn: 'Use Account Settings to turn off your own two-step sign-in.',
} as const;

/** A typed code as the server compares it: no spaces or dashes, lower case. */
export function normalizeSecondFactorCode(raw: string): string {
  return raw.replace(/[\s-]+/g, '').toLowerCase();
}

/** Six digits: a code from the app; anything else is read as a recovery code. */
export function isTotpCode(normalized: string): boolean {
  return new RegExp(`^\\d{${SECOND_FACTOR_LIMITS.codeDigits}}$`).test(normalized);
}

/** 'abcdefghjk' → 'abcde-fghjk', as recovery codes are shown. */
export function formatRecoveryCode(code: string): string {
  return code.length > 5 ? `${code.slice(0, 5)}-${code.slice(5)}` : code;
}
