import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { SECOND_FACTOR_LIMITS } from '../../../../../common/second-factor.js';
import type { SecondFactorSetup } from '../../../../../common/schemas/second-factor.js';

/**
 * TOTP through otplib (RFC 6238: SHA-1, 6 digits, 30 s steps, what every authenticator app
 * reads) and the QR code through qrcode, on the server only: the browser gets an SVG.
 */
export function newTotpSecret(): string {
  return generateSecret();
}

export async function setupOf(secret: string, label: string): Promise<SecondFactorSetup> {
  const otpauthUri = generateURI({ issuer: SECOND_FACTOR_LIMITS.issuer, label, secret });
  const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return { secret, otpauthUri, qrSvg };
}

/**
 * The time step the code belongs to when it is right within ±1 step and later than
 * `afterTimeStep` (a code already used, or an older one, is refused); null otherwise.
 */
export async function checkTotp(secret: string, code: string, afterTimeStep?: number): Promise<number | null> {
  if (!new RegExp(`^\\d{${SECOND_FACTOR_LIMITS.codeDigits}}$`).test(code)) return null;
  try {
    const result = await verify({
      secret,
      token: code,
      epochTolerance: SECOND_FACTOR_LIMITS.epochToleranceSeconds,
      ...(afterTimeStep && afterTimeStep > 0 ? { afterTimeStep } : {}),
    });
    return result.valid && 'timeStep' in result && typeof result.timeStep === 'number' ? result.timeStep : null;
  } catch {
    return null;
  }
}
