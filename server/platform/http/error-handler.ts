import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERRORS } from '../../../common/texts.js';
import { AppError, ERROR_CATALOGUE, type ErrorCode } from './errors.js';
import { outageOf, type Outage } from './outages.js';

const OUTAGE_CODES: Record<Outage, ErrorCode> = { database: 'DATABASE_UNAVAILABLE', storage: 'STORAGE_UNAVAILABLE', disk: 'DISK_FULL' };

function body(code: string, message: string, fields?: Record<string, string>, extra?: Record<string, unknown>) {
  return { error: { code, message, ...(fields ? { fields } : {}), ...(extra ?? {}) } };
}

/** One error handler: the catalogue's shape for every failure, and no internals on a 5xx. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      const wait = err.extra?.retryAfterSeconds;
      if (typeof wait === 'number') reply.header('retry-after', String(wait));
      return reply.code(err.status).send(body(err.code, err.message, err.fields, err.extra));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        fields[key] ??= issue.message ?? ERRORS.validation;
      }
      const first = Object.values(fields)[0] ?? ERRORS.validation;
      return reply.code(400).send(body('VALIDATION_FAILED', first, fields));
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      const code: ErrorCode | 'BAD_REQUEST' =
        status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : status === 429
              ? 'RATE_LIMITED'
              : status === 404
                ? 'NOT_FOUND'
                : err.code?.startsWith('FST_ERR_CTP') || err instanceof SyntaxError
                  ? 'MALFORMED_JSON'
                  : 'BAD_REQUEST';
      const message = code === 'BAD_REQUEST' ? err.message : ERROR_CATALOGUE[code].message;
      return reply.code(status).send(body(code, message));
    }
    const outage = outageOf(err);
    if (outage) {
      const code = OUTAGE_CODES[outage];
      request.log.error(
        { err, outage },
        `request failed: ${outage === 'disk' ? 'the disk is full' : `${outage === 'database' ? 'the database' : 'photo storage'} is not answering`}`,
      );
      if (outage !== 'disk') reply.header('retry-after', '60');
      return reply.code(ERROR_CATALOGUE[code].status).send(body(code, ERROR_CATALOGUE[code].message));
    }
    request.log.error({ err }, 'request failed');
    return reply.code(500).send(body('INTERNAL', ERRORS.internal));
  });
}
