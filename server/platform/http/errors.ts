import { ERRORS, FILE_READ_TEXTS, LOGIN } from '../../../common/texts.js';
import { SECOND_FACTOR } from '../../../common/second-factor.js';

/**
 * The error catalogue: stable codes, their HTTP status and the user-facing text.
 * Handlers throw `fail('CODE')`; one error handler renders `{ error: { code, message, fields? } }`.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: { status: 400, message: ERRORS.validation },
  MALFORMED_JSON: { status: 400, message: ERRORS.malformedJson },
  MALFORMED_UPLOAD: { status: 400, message: ERRORS.malformedUpload },
  UNAUTHENTICATED: { status: 401, message: ERRORS.unauthenticated },
  INVALID_CREDENTIALS: { status: 401, message: LOGIN.invalidCredentials },
  INVALID_CODE: { status: 401, message: SECOND_FACTOR.invalidCode },
  INVALID_UNLOCK: { status: 401, message: LOGIN.invalidUnlock },
  SIGN_IN_EXPIRED: { status: 401, message: SECOND_FACTOR.expired },
  ACCOUNT_DELETED: { status: 403, message: LOGIN.deletedAccount },
  ACCOUNT_RESTRICTED: { status: 403, message: LOGIN.restrictedAccount },
  FORBIDDEN: { status: 403, message: ERRORS.forbidden },
  NOT_FOUND: { status: 404, message: ERRORS.notFound },
  VERSION_CONFLICT: { status: 409, message: ERRORS.conflict },
  CONFLICT: { status: 409, message: ERRORS.conflict },
  PAYLOAD_TOO_LARGE: { status: 413, message: ERRORS.payloadTooLarge },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type.' },
  FILE_NOT_READ: { status: 422, message: FILE_READ_TEXTS.unreadable },
  RATE_LIMITED: { status: 429, message: ERRORS.rateLimited },
  INTERNAL: { status: 500, message: ERRORS.internal },
  FILE_READERS_BUSY: { status: 503, message: FILE_READ_TEXTS.busy },
  DATABASE_UNAVAILABLE: { status: 503, message: ERRORS.databaseDown },
  STORAGE_UNAVAILABLE: { status: 503, message: ERRORS.storageDown },
  DISK_FULL: { status: 507, message: ERRORS.diskFull },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly fields?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.status = ERROR_CATALOGUE[code].status;
  }
}

export function fail(code: ErrorCode, message?: string, fields?: Record<string, string>, extra?: Record<string, unknown>): never {
  throw new AppError(code, message, fields, extra);
}

/** A field-level validation failure with SPEC texts, as the browser's form would show it. */
export function invalid(fields: Record<string, string>): never {
  const first = Object.values(fields)[0];
  throw new AppError('VALIDATION_FAILED', first ?? ERRORS.validation, fields);
}
