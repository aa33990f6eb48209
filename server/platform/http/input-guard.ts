import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../../common/texts.js';
import { fail } from './errors.js';

const MAX_DEPTH = 32;

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1));
  for (const [key, v] of Object.entries(value)) if (key.includes('\u0000') || hasNul(v, depth + 1)) return true;
  return false;
}

/**
 * Text with a NUL character is refused before validation: PostgreSQL cannot store it (the
 * query would fail with a 5xx) and no form can type it. Path parameters, query and JSON body.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (hasNul(request.params) || hasNul(request.query) || hasNul(request.body)) fail('VALIDATION_FAILED', ERRORS.nulCharacter);
  });
}
