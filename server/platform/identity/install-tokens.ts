import crypto from 'node:crypto';
import { SCAN_REPORT_LIMITS, SCAN_REPORT_TEXTS } from '../../../common/scan-reports.js';
import type { AppContext } from '../http/context.js';
import { fail } from '../http/errors.js';
import { Signer } from './signing-keys.js';
import { Throttle } from './throttle.js';

const TOKEN = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const HOUR_MS = 60 * 60_000;

/**
 * The farmer app's installs: each registers once and gets an install token, its id signed by
 * the server (`<installId>.<HMAC-SHA256>`), which every scan report carries. Nothing about the
 * phone or the farmer is asked or kept; the id is random. Registrations are counted per
 * address in the database before they are answered, so an address cannot mint installs to get
 * round the per-install limit.
 */
export function createInstallTokens(ctx: AppContext) {
  const signer = new Signer(ctx.db, 'install-token');
  const perAddress = new Throttle(ctx.db, 'install-register', ctx.config.installRegistrationsPerIpPerHour, HOUR_MS);

  return {
    async register(address: string): Promise<{ installId: string; installToken: string }> {
      const state = await perAddress.hit(address);
      if (state.count > perAddress.max) {
        fail('RATE_LIMITED', SCAN_REPORT_TEXTS.tooManyInstalls, undefined, { retryAfterSeconds: Math.ceil(state.retryAfterMs / 1000) });
      }
      const installId = crypto.randomBytes(SCAN_REPORT_LIMITS.installIdBytes).toString('base64url');
      return { installId, installToken: `${installId}.${await signer.sign(installId)}` };
    },

    /** The install id of an `Authorization: Bearer <install token>` header; 401 without a valid one. */
    async installOf(authorization: string | undefined): Promise<string> {
      const match = /^Bearer (\S+)$/i.exec(authorization?.trim() ?? '');
      if (!match) fail('UNAUTHENTICATED', SCAN_REPORT_TEXTS.noInstallToken);
      const parts = TOKEN.exec(match[1]!);
      if (!parts || !(await signer.verify(parts[1]!, parts[2]!))) fail('UNAUTHENTICATED', SCAN_REPORT_TEXTS.badInstallToken);
      return parts[1]!;
    },
  };
}
