import type { FastifyInstance } from 'fastify';
import { CONTROL_TEXTS, hasControlCharacters, visibleControls } from '../../../common/text-controls.js';
import { ERRORS } from '../../../common/texts.js';
import { fail } from './errors.js';

const MAX_DEPTH = 32;

/** Secrets are compared, never shown: they keep whatever characters were chosen. */
const SECRET_FIELD = /password|secret|token|answer/i;

type Found = { kind: 'nul' } | { kind: 'control'; field: string; text: string };

function find(value: unknown, path: string, depth = 0): Found | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { kind: 'nul' };
    return hasControlCharacters(value) && !SECRET_FIELD.test(path) ? { kind: 'control', field: path || '_', text: value } : null;
  }
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [key, v] of entries) {
    if (key.includes('\u0000')) return { kind: 'nul' };
    const found = find(v, path ? `${path}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * Refused before validation, in path parameters, query and JSON body: text with a NUL character
 * (PostgreSQL cannot store it, so the query would fail with a 5xx, and no form can type it), and
 * text with other control or direction-changing characters (common/text-controls.ts), which would
 * reach the farmer app; that refusal names the field. Passwords and other secrets are left as typed.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const found = find(part, '');
      if (!found) continue;
      if (found.kind === 'nul') fail('VALIDATION_FAILED', ERRORS.nulCharacter);
      const message = CONTROL_TEXTS.refused(visibleControls(found.text));
      fail('VALIDATION_FAILED', message, { [found.field]: message });
    }
  });
}
