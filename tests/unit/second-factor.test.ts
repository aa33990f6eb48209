import { describe, expect, it } from 'vitest';
import { secondFactorProofFormSchema } from '../../common/schemas/second-factor.js';
import {
  formatRecoveryCode,
  isTotpCode,
  normalizeSecondFactorCode,
  SECOND_FACTOR,
  SECOND_FACTOR_LIMITS,
} from '../../common/second-factor.js';

describe('second factor helpers', () => {
  it('normalises typed codes: spaces, dashes and case do not matter', () => {
    expect(normalizeSecondFactorCode(' 123 456 ')).toBe('123456');
    expect(normalizeSecondFactorCode('ABCDE-fghjk')).toBe('abcdefghjk');
  });

  it('tells an app code (six digits) from a recovery code', () => {
    expect(isTotpCode('123456')).toBe(true);
    expect(isTotpCode('12345')).toBe(false);
    expect(isTotpCode('1234567')).toBe(false);
    expect(isTotpCode('abcdefghjk')).toBe(false);
  });

  it('shows recovery codes as two groups of five from an alphabet without look-alike characters', () => {
    expect(formatRecoveryCode('abcdefghjk')).toBe('abcde-fghjk');
    expect(SECOND_FACTOR_LIMITS.recoveryCodeAlphabet).not.toMatch(/[01ilo]/);
  });

  it('the browser asks for the password and a code together', () => {
    expect(secondFactorProofFormSchema.safeParse({ password: 'x', code: '123456' }).success).toBe(true);
    const none = secondFactorProofFormSchema.safeParse({ password: '', code: '' });
    expect(none.success).toBe(false);
    expect(none.error?.issues.map((i) => i.message)).toEqual([SECOND_FACTOR.passwordRequired, SECOND_FACTOR.codeRequired]);
  });
});
