import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROLES, type Role } from '../common/permissions.js';
import { SCAN_REPORT_LIMITS } from '../common/scan-reports.js';
import { CATALOG_LIMITS } from '../common/catalog.js';
import { MODEL_LIMITS } from '../common/models.js';
import { REVIEW_LIMITS } from '../common/review.js';
import type { FileReaderLimits } from './platform/parsing/file-readers.js';
import type { S3Settings } from './platform/storage/s3-storage.js';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** SQLITE_READ_WORKERS: threads that run variety searches beside the server's own (SQLite only). */
  sqliteReadWorkers: number;
  /** FILE_READERS, FILE_READ_TIME_LIMIT_MS, FILE_READ_MEMORY_MB: the threads that parse uploaded files (platform/parsing). */
  fileReaders: FileReaderLimits;
  /** POSTGRES_READ_CONNECTIONS: connections that run the prepared reads of every request (db/prepared-statements.ts). */
  postgresReadConnections: number;
  /** Server-side idle timeout; the browser uses the same value for its inactivity logout. */
  sessionIdleTimeoutMs: number;
  /** SESSION_MAX_AGE_HOURS: a session this old ends, active or not. */
  sessionMaxAgeMs: number;
  /** How often a live stream re-checks its session (fallback to pushed events). */
  sessionRecheckMs: number;
  /**
   * Open sessions an account may hold at once (MAX_SESSIONS_PER_ACCOUNT, 1 to 10). 1 is docs/PRODUCT.md's
   * rule: a new login ends the older session. More lets staff keep a phone and a desktop signed in;
   * a login beyond the limit ends the least recently active one.
   */
  maxSessionsPerAccount: number;
  cookieSecure: boolean;
  logLevel: string;
  loginRateLimitPerMinute: number;
  loginFailuresPerAccount: number;
  loginFailureWindowMs: number;
  initialAdmin: {
    username?: string | undefined;
    password?: string | undefined;
    email?: string | undefined;
    fullname?: string | undefined;
  };
  smtpUrl: string | undefined;
  publicUrl: string | undefined;
  clientDir: string;
  /** PostgreSQL LISTEN/NOTIFY channel shared by the instances of one deployment. */
  eventChannel: string;
  /** Origins allowed to call the public content API from a browser ('*' for any). */
  publicCorsOrigins: string[];
  publicRateLimitPerMinute: number;
  /** Scan reports older than this many days are deleted by a daily job. */
  scanReportRetentionDays: number;
  /** SCAN_REPORT_MAX_AGE_DAYS: reports of scans older than this are refused. */
  scanReportMaxAgeDays: number;
  /** Scan reports accepted per app install, per IP address and in all per minute, counted across instances. */
  scanReportsPerInstallPerMinute: number;
  scanReportsPerIpPerMinute: number;
  scanReportsPerMinute: number;
  /** Farmer-app installs one IP address may register per hour. */
  installRegistrationsPerIpPerHour: number;
  /** MODEL_TARGET_ACCURACY: the share of answered scans a model's recommended thresholds must get right. */
  modelTargetAccuracy: number;
  /**
   * Fastify's trustProxy: false (default), true, a hop count, or a comma-separated list of
   * proxy addresses/CIDRs. Rate limits and logs then use the client address the proxy passes.
   * Behind one proxy use 1: true also trusts the X-Forwarded-For entries the client wrote.
   */
  trustProxy: boolean | number | string;
  /** Photos go to this S3-compatible bucket when set; otherwise to DATA_DIR/files. */
  s3: S3Settings | undefined;
  /** Names this process in logs, in the thumbnail queue's claims and in its database listener. */
  instanceId: string;
  /** Audit entries older than this many days are archived to a file, then removed; unset keeps all. */
  auditRetentionDays: number | undefined;
  /** DRAFT_RETENTION_DAYS: how long an unsaved pest or disease is kept for its account (default 7). */
  draftRetentionDays: number;
  /** DISK_FREE_FLOOR_MB: below this much free space in DATA_DIR the readiness check answers 503 (default 200). */
  diskFreeFloorMb: number;
  /**
   * BACKUP_TARGET: where scheduled backups go, a folder (another disk or a mounted share) or
   * s3://bucket/prefix (S3_ENDPOINT, S3_REGION and the S3 keys; never the photo bucket). Unset:
   * no scheduled backups.
   */
  backupTarget: string | undefined;
  /** REVIEW_SCHEDULE_CHECK_SECONDS: how often each instance publishes approved changes whose time has come (default 15). */
  reviewScheduleCheckMs: number;
  /** BACKUP_EVERY_HOURS: how often (default 24). */
  backupEveryHours: number;
  /** BACKUP_KEEP: how many scheduled backups the target keeps (default 7). */
  backupKeep: number;
  /** PHOTO_MAX_EDGE: the longest side of a stored photo in pixels; 0 keeps every photo as sent. */
  photoMaxEdge: number;
  /** VERSION_RETENTION: the versions kept per record (unset: every version). */
  versionRetention: number | undefined;
  /** Roles that must sign in with a second factor (REQUIRE_2FA_FOR); they set it up at their next login. */
  require2faFor: Role[];
}

function int(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number.parseInt(value, 10);
  if (!Number.isFinite(n) || n < 0) throw new Error(`Expected a non-negative whole number, got "${value}"`);
  return n;
}

function trustProxyOf(value: string | undefined): boolean | number | string {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

function auditRetentionOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const days = int(value.trim(), 0);
  if (days < 1) throw new Error(`AUDIT_RETENTION_DAYS must be at least 1 (unset keeps every entry), got "${value}"`);
  return days;
}

function targetAccuracyOf(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return MODEL_LIMITS.targetAccuracy;
  const share = Number(value.trim());
  if (!(share >= 0.5 && share < 1))
    throw new Error(`MODEL_TARGET_ACCURACY must be a share from 0.5 to below 1 (0.95 is 95%), got "${value}"`);
  return share;
}

function photoMaxEdgeOf(value: string | undefined): number {
  const edge = int(value?.trim(), CATALOG_LIMITS.photoMaxEdge);
  if (edge !== 0 && edge < 256) throw new Error(`PHOTO_MAX_EDGE must be 0 (keep photos as sent) or at least 256 pixels, got "${value}"`);
  return edge;
}

function versionRetentionOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '' || value.trim().toLowerCase() === 'unlimited') return undefined;
  const keep = int(value.trim(), 0);
  if (keep < 1) throw new Error(`VERSION_RETENTION must be at least 1 (unset keeps every version), got "${value}"`);
  return keep;
}

function rolesOf(value: string | undefined): Role[] {
  const names = (value ?? '')
    .split(',')
    .map((r) => r.trim().toUpperCase().replace(/\s+/g, '_'))
    .filter(Boolean);
  for (const name of names) {
    if (!(ROLES as readonly string[]).includes(name)) throw new Error(`REQUIRE_2FA_FOR lists roles (${ROLES.join(', ')}), got "${name}"`);
  }
  return [...new Set(names)] as Role[];
}

function publicUrlOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`PUBLIC_URL must be http or https, got "${value}"`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * Where emailed links point: PUBLIC_URL, else the configured HOST and PORT (a wildcard
 * address becomes localhost). Never the request's Host header, which a client chooses.
 */
export function linkOrigin(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  return listenOrigin(config);
}

/** The address the server listens on, as a URL (a wildcard address becomes localhost). */
export function listenOrigin(config: Pick<Config, 'host' | 'port'>): string {
  const host = config.host === '0.0.0.0' || config.host === '::' || config.host === '' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** The folder holding package.json: the same whether this file runs from server/ or build/server/. */
function projectRoot(from: string): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, 'package-lock.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const root = projectRoot(import.meta.dirname);
  return {
    port: int(env.PORT, 3000),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || path.join(root, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    // One core is the server's own thread; readers on the others.
    sqliteReadWorkers: Math.min(8, int(env.SQLITE_READ_WORKERS, Math.max(1, Math.min(4, os.availableParallelism() - 1)))),
    fileReaders: {
      concurrency: Math.min(8, Math.max(1, int(env.FILE_READERS, 2))),
      queue: 8,
      timeLimitMs: Math.max(1000, int(env.FILE_READ_TIME_LIMIT_MS, 20_000)),
      memoryMb: Math.max(32, int(env.FILE_READ_MEMORY_MB, 64)),
    },
    // Two per core of a database on this machine: more statements at once than that only take
    // turns on its cores, and the short ones wait behind the long ones.
    postgresReadConnections: Math.min(50, Math.max(1, int(env.POSTGRES_READ_CONNECTIONS, Math.min(10, 2 * os.availableParallelism())))),
    sessionIdleTimeoutMs: int(env.SESSION_IDLE_TIMEOUT_MS, 600_000),
    sessionRecheckMs: int(env.SESSION_RECHECK_MS, 5000),
    sessionMaxAgeMs: int(env.SESSION_MAX_AGE_HOURS, 12) * 60 * 60_000,
    maxSessionsPerAccount: Math.min(10, Math.max(1, int(env.MAX_SESSIONS_PER_ACCOUNT, 1))),
    cookieSecure: env.COOKIE_SECURE === 'true',
    logLevel: env.LOG_LEVEL || 'info',
    loginRateLimitPerMinute: int(env.LOGIN_RATE_LIMIT_PER_MINUTE, 30),
    loginFailuresPerAccount: int(env.LOGIN_FAILURES_PER_ACCOUNT, 10),
    loginFailureWindowMs: int(env.LOGIN_FAILURE_WINDOW_MS, 15 * 60_000),
    initialAdmin: {
      username: env.INITIAL_ADMIN_USERNAME,
      password: env.INITIAL_ADMIN_PASSWORD,
      email: env.INITIAL_ADMIN_EMAIL,
      fullname: env.INITIAL_ADMIN_FULLNAME,
    },
    smtpUrl: env.SMTP_URL || undefined,
    publicUrl: publicUrlOf(env.PUBLIC_URL),
    clientDir: path.join(root, 'dist', 'client'),
    eventChannel: env.EVENT_CHANNEL || 'palayan_events',
    publicCorsOrigins: (env.PUBLIC_CORS_ORIGINS || '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    publicRateLimitPerMinute: int(env.PUBLIC_RATE_LIMIT_PER_MINUTE, 300),
    scanReportRetentionDays: int(env.SCAN_REPORT_RETENTION_DAYS, SCAN_REPORT_LIMITS.retentionDays),
    scanReportMaxAgeDays: int(env.SCAN_REPORT_MAX_AGE_DAYS, SCAN_REPORT_LIMITS.maxAgeDays),
    scanReportsPerInstallPerMinute: int(env.SCAN_REPORTS_PER_INSTALL_PER_MINUTE, SCAN_REPORT_LIMITS.perInstallPerMinute),
    scanReportsPerIpPerMinute: int(env.SCAN_REPORTS_PER_IP_PER_MINUTE, SCAN_REPORT_LIMITS.perIpPerMinute),
    scanReportsPerMinute: int(env.SCAN_REPORTS_PER_MINUTE, SCAN_REPORT_LIMITS.perMinute),
    installRegistrationsPerIpPerHour: int(env.INSTALL_REGISTRATIONS_PER_IP_PER_HOUR, SCAN_REPORT_LIMITS.installsPerIpPerHour),
    modelTargetAccuracy: targetAccuracyOf(env.MODEL_TARGET_ACCURACY),
    trustProxy: trustProxyOf(env.TRUST_PROXY),
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          endpoint: env.S3_ENDPOINT || undefined,
          region: env.S3_REGION || 'us-east-1',
          accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
        }
      : undefined,
    instanceId: env.INSTANCE_ID || `${os.hostname()}:${process.pid}`,
    auditRetentionDays: auditRetentionOf(env.AUDIT_RETENTION_DAYS),
    versionRetention: versionRetentionOf(env.VERSION_RETENTION),
    photoMaxEdge: photoMaxEdgeOf(env.PHOTO_MAX_EDGE),
    draftRetentionDays: Math.max(1, int(env.DRAFT_RETENTION_DAYS, CATALOG_LIMITS.draftRetentionDays)),
    diskFreeFloorMb: Math.max(0, int(env.DISK_FREE_FLOOR_MB, 200)),
    backupTarget: backupTargetOf(env.BACKUP_TARGET, env.S3_BUCKET),
    reviewScheduleCheckMs: 1000 * Math.min(60, Math.max(1, int(env.REVIEW_SCHEDULE_CHECK_SECONDS, REVIEW_LIMITS.scheduleCheckMs / 1000))),
    backupEveryHours: Math.min(24 * 30, Math.max(1, int(env.BACKUP_EVERY_HOURS, 24))),
    backupKeep: Math.min(1000, Math.max(1, int(env.BACKUP_KEEP, 7))),
    require2faFor: rolesOf(env.REQUIRE_2FA_FOR),
    ...overrides,
  };
}

/** A folder or s3://bucket/prefix; a backup in the photo bucket would be lost with it. */
function backupTargetOf(raw: string | undefined, photoBucket: string | undefined): string | undefined {
  const target = raw?.trim();
  if (!target) return undefined;
  const bucket = /^s3:\/\/([^/]+)/.exec(target)?.[1];
  if (target.startsWith('s3://') && !bucket) throw new Error('BACKUP_TARGET: s3://bucket/prefix needs a bucket');
  if (bucket && bucket === photoBucket)
    throw new Error('BACKUP_TARGET: use a bucket other than the photo bucket (S3_BUCKET), so one mistake cannot lose both');
  return target;
}
