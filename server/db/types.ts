import type { Generated } from 'kysely';

/**
 * The one Database interface every query is typed from. Field names follow SPEC.md section 3.
 * Portable storage on both engines: timestamps are ISO-8601 UTC text, booleans are 0/1
 * integers, lists and objects are JSON text. Repositories convert at the boundary.
 */
export type Bool = number;

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
  ip: string | null;
  userAgent: string | null;
}

export interface VarietiesTable {
  id: string;
  varietyName: string;
  releaseName: string | null;
  yearRelease: string | null;
  breedingCode: string | null;
  breederOrigin: string | null;
  maturityDays: number | null;
  averageYield: number | null;
  maxYield: number | null;
  plantHeight: number | null;
  tillers: number | null;
  location: string | null;
  season: string;
  plantingMethod: string | null;
  environment: string;
  recommendedInTarlac: Generated<Bool>;
  isDeleted: Generated<Bool>;
  createdAt: string;
  updatedAt: string | null;
  deletedAt: string | null;
  deletedBy: string | null;
  version: Generated<number>;
  /** Lower-cased searched fields (migration 010), kept by the varieties repository. */
  searchText: Generated<string>;
}

/** Shared shape of rice_local_pests and rice_local_diseases. */
export interface CatalogTable {
  id: string;
  name: string;
  scientificName: string | null;
  description: string | null;
  cause: string | null;
  symptoms: string | null;
  treatments: string | null;
  mainImageUrl: string | null;
  /** Migration 150: the Filipino name; parts of the plant (JSON text list, diseases); scanner class that is no disease. */
  localName: string | null;
  affectedParts: Generated<string>;
  isTrainingClass: Generated<Bool>;
  isDeleted: Generated<Bool>;
  createdAt: string;
  updatedAt: string | null;
  deletedAt: string | null;
  deletedBy: string | null;
  version: Generated<number>;
}

export interface CatalogImagesTable {
  id: string;
  collection: string;
  entryId: string | null;
  position: number;
  originalKey: string | null;
  displayKey: string | null;
  thumbKey: string | null;
  externalUrl: string | null;
  status: string;
  mimeType: string | null;
  sizeBytes: number | null;
  width: number | null;
  height: number | null;
  originalName: string | null;
  sha256: string | null;
  uploadedBy: string | null;
  createdAt: string;
  linkedAt: string | null;
  /** The instance making this photo's variants, until when (server/modules/catalog/runtime.ts). */
  claimedBy?: string | null;
  claimedUntil?: string | null;
}

export interface AuditLogsTable {
  seq: Generated<number>;
  id: string;
  userId: string | null;
  userName: string | null;
  userEmail: string | null;
  timestamp: string;
  action: string;
  collection: string | null;
  documentId: string | null;
  documentName: string | null;
  description: string | null;
  changes: string | null;
  details: string | null;
  actorId: string | null;
  performedBy: string | null;
  name: string | null;
}

/** An audit entry's place in the tamper-evident chain (platform/audit-hash.ts, docs/AUDIT.md). */
export interface AuditChainLinksTable {
  chainIndex: number;
  seq: number;
  prevHash: string;
  hash: string;
}

/** Audit entries written and not chained yet: the sealer's work list. */
export interface AuditPendingTable {
  seq: number;
}

/** The chain's one row (id 1): its head, and its base once retention has archived entries. */
export interface AuditChainTable {
  id: number;
  lastIndex: number;
  lastHash: string;
  baseIndex: number;
  baseHash: string;
  /** When an instance last claimed the daily anchor, retention and verification run. */
  dailyAt: string | null;
}

export interface AuditVerificationsTable {
  id: string;
  startedAt: string;
  finishedAt: string | null;
  status: 'running' | 'ok' | 'failed' | 'error';
  trigger: 'manual' | 'daily';
  requestedBy: string | null;
  checked: number;
  total: number;
  problem: string | null;
  problemIndex: number | null;
  problemId: string | null;
}

export interface MaintenanceTable {
  id: string;
  data: string;
  createdAt: string;
  updatedAt: string | null;
  version: Generated<number>;
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
export interface RecoveryFailuresTable {
  accountId: string;
  failures: number;
  lastFailedAt: string;
  pausedUntil: string | null;
}

export interface ImportRecordsTable {
  collection: string;
  docId: string;
  hash: string;
  importedAt: string;
}

export interface Database {
  accounts: AccountsTable;
  sessions: SessionsTable;
  import_records: ImportRecordsTable;
  rice_seed_varieties: VarietiesTable;
  rice_local_pests: CatalogTable;
  rice_local_diseases: CatalogTable;
  catalog_images: CatalogImagesTable;
  audit_logs: AuditLogsTable;
  audit_chain: AuditChainTable;
  audit_chain_links: AuditChainLinksTable;
  audit_pending: AuditPendingTable;
  audit_verifications: AuditVerificationsTable;
  maintenance: MaintenanceTable;
  password_reset_tokens: PasswordResetTokensTable;
  recovery_flows: RecoveryFlowsTable;
  recovery_failures: RecoveryFailuresTable;
  throttles: ThrottlesTable;
  scan_reports: ScanReportsTable;
  scan_report_counts: ScanReportCountsTable;
  scan_report_weekly: ScanReportWeeklyTable;
  second_factors: SecondFactorsTable;
  second_factor_recovery_codes: SecondFactorRecoveryCodesTable;
  login_challenges: LoginChallengesTable;
}

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

/** Reports per Manila week (its Monday), disease and municipality (migration 150). */
export interface ScanReportWeeklyTable {
  week: string;
  diseaseId: string;
  municipality: string;
  reports: number;
}

/** Reports per Manila day, disease and municipality ('' when not given) (migration 150). */
export interface ScanReportCountsTable {
  day: string;
  diseaseId: string;
  municipality: string;
  reports: number;
}

/** A farmer app's report of one scan (migration 150): no photo, no person. */
export interface ScanReportsTable {
  id: string;
  label: string;
  diseaseId: string | null;
  confidence: number;
  modelVersion: string;
  scannedAt: string;
  receivedAt: string;
  municipality: string | null;
  barangay: string | null;
  installId: string;
}

export interface ThrottlesTable {
  key: string;
  count: number;
  resetAt: string;
}

export type CatalogCollection = 'rice_local_pests' | 'rice_local_diseases';
