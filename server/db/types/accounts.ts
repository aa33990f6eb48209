import type { Generated } from 'kysely';
import type { Bool } from './portable.js';

/* Accounts and signing in: sessions, password recovery, the second factor, attempt counters. */

export interface AccountsTable {
  id: string;
  fullname: string;
  username: string;
  normalizedUsername: string;
  email: string | null;
  normalizedEmail: string | null;
  contactNo: string | null;
  photoURL: string | null;
  password: string;
  securityQuestion: string | null;
  securityAnswer: string | null;
  role: string;
  status: string;
  isRestricted: Generated<Bool>;
  restrictedAt: string | null;
  autoInactive: Generated<Bool>;
  autoInactiveAt: string | null;
  currentSession: string | null;
  lastLogin: string | null;
  lastLogoutAt: string | null;
  createdAt: string;
  updatedAt: string | null;
  isDeleted: Generated<Bool>;
  deletedAt: string | null;
  deletedBy: string | null;
  version: Generated<number>;
}

export interface SessionsTable {
  id: string;
  accountId: string;
  tokenHash: string;
  createdAt: string;
  lastSeenAt: string;
  endedAt: string | null;
  endedReason: string | null;
  /** When the user last confirmed their password (and code) in this session. */
  reauthAt: string | null;
  ip: string | null;
  userAgent: string | null;
}

export interface PasswordResetTokensTable {
  tokenHash: string;
  accountId: string;
  purpose: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** A started forgot-password recovery (migration 050). */
export interface RecoveryFlowsTable {
  id: string;
  accountId: string;
  ip: string | null;
  createdAt: string;
  expiresAt: string;
  verifiedAt: string | null;
}

/** Wrong security answers per account and the pause they cause (migration 050). */
/** An account's confirmed TOTP key (migration 170); never part of an account view. */
export interface SecondFactorsTable {
  accountId: string;
  secret: string;
  enabledAt: string;
  /** The last time step a code was accepted for: that step and earlier ones are refused. */
  lastTimeStep: Generated<number>;
}

/** Single-use recovery codes (migration 170): only the sha256 of the normalised code. */
export interface SecondFactorRecoveryCodesTable {
  id: string;
  accountId: string;
  codeHash: string;
  createdAt: string;
  usedAt: string | null;
}

/** Between password and session, or a setup in Account Settings (migration 170). */
export interface LoginChallengesTable {
  id: string;
  tokenHash: string;
  accountId: string;
  purpose: 'verify' | 'enroll' | 'setup';
  pendingSecret: string | null;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface ThrottlesTable {
  key: string;
  count: number;
  resetAt: string;
  /** Budgets that lock: no attempt is counted or checked before this time. */
  lockedUntil: string | null;
  /** Lockouts in a row (each lasts twice as long as the one before); 0 for plain rate limits. */
  lockouts: Generated<number>;
}

/** A secret the server signs with, by purpose (migration 182): base64url of 32 random bytes. */
export interface SigningKeysTable {
  name: string;
  secret: string;
  createdAt: string;
}

/** A profile picture uploaded and not yet saved (migration 193): its owner's alone, removed when never saved. */
export interface StagedAvatarsTable {
  key: string;
  accountId: string;
  createdAt: string;
}
