/**
 * Texts and limits of Account Settings, the profile picture and password recovery
 * (docs/PRODUCT.md sections 2, 4, 5, 8 and 9). The specification's texts are word for word; the
 * few it does not give (marked "ours") follow its tone.
 */
/** Changes that could take an account over need the current password given this recently. */
export const REAUTH_WINDOW_MS = 5 * 60_000;

export const SETTINGS = {
  title: 'Account Settings',
  /** Asked when the email or the security question or answer changes (not within REAUTH_WINDOW_MS of the last time). */
  currentPassword: 'Current password',
  confirmIdentity: 'To change your email or security question, enter your current password.',
  /** Ours: the Accounts screen's changes that could hand an account over (common/reauth.ts). */
  confirmChange: 'To make this change, enter your current password.',
  confirmIdentityCode: 'Code from your authenticator app',
  currentPasswordRequired: 'Enter your current password to make this change.',
  wrongCurrentPassword: 'That is not your current password.',
  personalInfo: 'Personal Info',
  securitySection: 'Security Question',
  profilePicture: 'Profile picture',
  choosePhoto: 'Choose photo',
  changePhoto: 'Change photo',
  photoHint: 'JPG, PNG or any image. It is cropped round and resized to 512 px.',
  newPhotoPending: 'New picture: it is uploaded when you save.',
  removeNewPhoto: 'Undo new picture',
  fullname: 'Full name',
  email: 'Email',
  contactNo: 'Contact number',
  contactPlaceholder: '09XXXXXXXXX',
  question: 'Security question',
  questionPlaceholder: 'Select a security question',
  answer: 'Answer',
  answerPlaceholder: 'Your answer',
  answerDisabledPlaceholder: 'Choose a question first',
  answerKeepPlaceholder: 'Saved (leave blank to keep it)',
  answerCaseHint: 'Answers are not case-sensitive.',
  sendResetEmail: 'Send password reset email',
  sendingResetEmail: 'Sending...',
  resetEmailSent: (email: string) => `Password reset email sent to ${email}. The link works once, for 30 minutes.`,
  cancel: 'Cancel',
  save: 'Save changes',
  saving: 'Saving...',
  saved: 'Changes saved.',
  loading: 'Loading your account...',
  // docs/PRODUCT.md sections 5 and 8
  answerRequired: 'Please provide an answer to your selected security question.',
  noUserId: 'No user id',
  noEmail: 'No email available.',
  saveFailed: 'Failed to save changes.',
  sendFailed: 'Failed to send reset email.',
  readFailed: 'Failed to read selected file.',
  invalidImage: 'Please select a valid image file.',
  cropFailed: 'Failed to crop image.',
  compressFailed: 'Failed to compress image.',
  // ours (docs/PRODUCT.md section 5 admin form texts where they apply)
  fullnameRequired: 'Full name is required.',
  invalidEmail: 'Enter a valid email address',
  emailTaken: 'Email is already in use',
  invalidContact: 'Enter a valid contact number (for example 09171234567).',
  unknownQuestion: 'Please select a question from the list.',
  changedElsewhere: 'Your account was changed in another window. The form now shows the latest values; fields you edited are kept.',
} as const;

/** Account Settings' own password change (ours). */
export const CHANGE_PASSWORD = {
  section: 'Password',
  intro: 'Change the password you log in with. Your other sessions are signed out; this one stays open.',
  open: 'Change password',
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  code: 'Code from your authenticator app',
  submit: 'Change password',
  busy: 'Changing...',
  cancel: 'Cancel',
  done: 'Password changed. Your other sessions were signed out.',
  currentRequired: 'Enter your current password.',
  sameAsCurrent: 'Choose a new password that is different from your current one.',
  failed: 'Failed to change password.',
  emailSubject: 'PalaYan Admin: your password was changed',
} as const;

export const CROP = {
  title: 'Crop Profile Picture',
  zoom: 'Zoom',
  cancel: 'Cancel',
  apply: 'Apply crop',
} as const;

export const RECOVERY = {
  title: 'Forgot Password',
  stepOf: (step: number) => `Step ${step} of 3`,
  step1Intro: 'Enter the username or email of your account.',
  step2Intro: 'Choose the security question of your account and answer it.',
  step3Intro: 'Set a new password for your account.',
  identifier: 'Username or email',
  question: 'Security question',
  questionPlaceholder: 'Select your security question',
  answer: 'Answer',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
  next: 'Next',
  verify: 'Verify answer',
  reset: 'Reset password',
  busy: 'Please wait...',
  cancel: 'Cancel',
  // docs/PRODUCT.md section 5, the specification's words
  identifierRequired: 'Please enter username or email',
  userNotFound: 'User not found',
  questionRequired: 'Please select your security question',
  answerRequired: 'Please enter your answer',
  questionMismatch: 'Selected question does not match the one on your account',
  wrongAnswer: 'Wrong answer',
  fillBoth: 'Please fill both fields',
  rulesNotMet: 'Password does not meet all requirements',
  passwordsDontMatch: "Passwords don't match",
  genericError: 'Something went wrong',
  success: 'Password reset successfully!',
  // ours
  paused: (minutes: number) =>
    `Too many wrong answers. Security question recovery for this account is paused for ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  expired: 'Your recovery has expired. Please start again.',
  // The email link page (ours)
  linkTitle: 'Set a new password',
  linkIntro: 'Choose a new password for your account. The link works once.',
  linkInvalid: 'This password reset link is invalid, already used or expired. Ask for a new one from Account Settings.',
  linkChecking: 'Checking your link...',
  linkDone: 'Your password was changed. You can now log in with it.',
  backToLogin: 'Back to login',
  emailSubject: 'PalaYan Admin: reset your password',
} as const;

/** docs/PRODUCT.md section 9: avatar image and crop limits. */
export const AVATAR = {
  maxSide: 512,
  startQuality: 0.85,
  minQuality: 0.4,
  qualityStep: 0.1,
  maxBytes: 921_600,
  cropZoomMin: 1,
  cropZoomMax: 3,
  cropZoomStep: 0.1,
  cropAspect: 1,
  cropQuality: 0.9,
  /** Largest image the server decodes (guards against decompression bombs). */
  maxInputPixels: 40_000_000,
} as const;

/** Recovery throttling and token lifetimes (ours; docs/PRODUCT.md gives none). */
export const RECOVERY_LIMITS = {
  maxWrongAnswers: 5,
  pauseMs: 15 * 60_000,
  /** A started recovery (step 1 done) must reach step 2 within this time. */
  flowTtlMs: 15 * 60_000,
  /** The step-2 reset token must be used within this time. */
  resetTokenTtlMs: 10 * 60_000,
  emailLinkTtlMs: 30 * 60_000,
  ipFailures: 20,
  identifierFailures: 10,
  failureWindowMs: 15 * 60_000,
  resetEmailsPerWindow: 5,
  requestsPerMinutePerIp: 60,
} as const;
