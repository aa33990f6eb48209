import bcrypt from 'bcrypt';
import { describe, expect, it } from 'vitest';
import { ACCOUNTS, accountDisplayStatus, roleAbilities } from '../../common/accounts';
import { can } from '../../common/permissions';
import { PASSWORD_IS_HASH_MESSAGE, PASSWORD_RULES_MESSAGE, PASSWORD_TOO_LONG_MESSAGE } from '../../common/password';
import { accountAddFormSchema, accountCreateSchema, accountUpdateSchema } from '../../common/schemas/accounts';
import { uniqueViolationField } from '../../server/modules/identity/accounts/unique';

const M = ACCOUNTS.messages;
const valid = { fullname: 'Juan Luna', email: 'juan@da.example', username: 'juan_luna', password: 'Spoliarium#1', role: 'ADMIN' as const };
const firstMessage = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  r.error?.issues.find((i) => i.path[0] === field)?.message;

describe('account status column', () => {
  it('shows Active, Restricted, or Inactive apart from Restricted', () => {
    expect(accountDisplayStatus({ status: 'active', isRestricted: 0 })).toBe('active');
    expect(accountDisplayStatus({ status: true, isRestricted: false })).toBe('active');
    expect(accountDisplayStatus({ status: 'true', isRestricted: 0 })).toBe('active');
    expect(accountDisplayStatus({ status: 'inactive', isRestricted: 0 })).toBe('inactive');
    expect(accountDisplayStatus({ status: 'restricted', isRestricted: 0 })).toBe('restricted');
    expect(accountDisplayStatus({ status: 'active', isRestricted: 1 })).toBe('restricted');
    expect(accountDisplayStatus({ status: 'inactive', isRestricted: true })).toBe('restricted');
    expect(accountDisplayStatus({ status: 'something-else', isRestricted: 0 })).toBe('restricted');
    expect(accountDisplayStatus({ status: null, isRestricted: null })).toBe('restricted');
  });
});

describe('admin form schema', () => {
  it('accepts a valid admin and trims the text fields', () => {
    const r = accountCreateSchema.parse({ ...valid, fullname: '  Juan Luna ', username: ' juan_luna ', email: ' juan@da.example ' });
    expect(r).toMatchObject({ fullname: 'Juan Luna', username: 'juan_luna', email: 'juan@da.example' });
  });

  it('gives the SPEC messages', () => {
    expect(firstMessage(accountCreateSchema.safeParse({ ...valid, username: 'seven77' }), 'username')).toBe(M.usernameMin);
    expect(firstMessage(accountCreateSchema.safeParse({ ...valid, username: '   eight888   ' }), 'username')).toBe(undefined);
    expect(firstMessage(accountCreateSchema.safeParse({ ...valid, username: 'has@symbol' }), 'username')).toBe(M.usernameChars);
    for (const email of ['x@y', 'x.y.z', 'x@@y.z', '']) {
      expect(firstMessage(accountCreateSchema.safeParse({ ...valid, email }), 'email'), email).toBe(M.emailInvalid);
    }
    expect(firstMessage(accountCreateSchema.safeParse({ ...valid, email: 'x@y.z' }), 'email')).toBe(undefined);
    expect(firstMessage(accountCreateSchema.safeParse({ ...valid, password: 'Spoliarium1' }), 'password')).toBe(PASSWORD_RULES_MESSAGE);
    expect(firstMessage(accountCreateSchema.safeParse({ ...valid, password: '' }), 'password')).toBe(PASSWORD_RULES_MESSAGE);
    expect(firstMessage(accountCreateSchema.safeParse({ ...valid, fullname: ' ' }), 'fullname')).toBe(M.fullnameRequired);
  });

  it('on edit, an empty or missing password is allowed and means unchanged', () => {
    expect(accountUpdateSchema.parse({ ...valid, password: '', version: 3 }).password).toBe('');
    const { password: _p, role: _r, ...rest } = valid;
    expect(accountUpdateSchema.parse({ ...rest, version: 3 }).password).toBe('');
    expect(firstMessage(accountUpdateSchema.safeParse({ ...valid, password: 'short', version: 3 }), 'password')).toBe(
      PASSWORD_RULES_MESSAGE,
    );
  });

  it('refuses a ready-made bcrypt hash as a password', () => {
    const hash = bcrypt.hashSync('Whatever#1', 4);
    expect(firstMessage(accountCreateSchema.safeParse({ ...valid, password: hash }), 'password')).toBe(PASSWORD_IS_HASH_MESSAGE);
    expect(firstMessage(accountUpdateSchema.safeParse({ ...valid, password: hash, version: 1 }), 'password')).toBe(
      PASSWORD_IS_HASH_MESSAGE,
    );
  });

  it('refuses passwords longer than 72 bytes, counting bytes not letters', () => {
    const ok72 = `Aa1!${'x'.repeat(68)}`;
    expect(new TextEncoder().encode(ok72).length).toBe(72);
    expect(accountCreateSchema.safeParse({ ...valid, password: ok72 }).success).toBe(true);
    expect(firstMessage(accountCreateSchema.safeParse({ ...valid, password: `${ok72}x` }), 'password')).toBe(PASSWORD_TOO_LONG_MESSAGE);
    // 36 letters of two bytes each, plus the checklist: 76 bytes though only 40 characters.
    const accented = `Aa1!${'ñ'.repeat(36)}`;
    expect(accented.length).toBe(40);
    expect(firstMessage(accountCreateSchema.safeParse({ ...valid, password: accented }), 'password')).toBe(PASSWORD_TOO_LONG_MESSAGE);
    expect(firstMessage(accountUpdateSchema.safeParse({ ...valid, password: accented, version: 1 }), 'password')).toBe(
      PASSWORD_TOO_LONG_MESSAGE,
    );
  });
});

describe('unique violations', () => {
  it('names the field on both engines and ignores other errors', () => {
    expect(
      uniqueViolationField({ code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: accounts.normalizedUsername' }),
    ).toBe('username');
    expect(
      uniqueViolationField({
        code: '23505',
        constraint: 'accounts_normalizedEmail_key',
        detail: 'Key ("normalizedEmail")=(a@b.c) already exists.',
      }),
    ).toBe('email');
    expect(uniqueViolationField({ code: '23505', constraint: 'audit_logs_id_key' })).toBe(null);
    expect(uniqueViolationField({ code: 'SQLITE_BUSY', message: 'normalizedUsername' })).toBe(null);
    expect(uniqueViolationField(new Error('boom'))).toBe(null);
    expect(uniqueViolationField(null)).toBe(null);
  });
});

describe("Add New Admin's role abilities", () => {
  it('say in plain words what each role can and cannot do, read from the role table', () => {
    const admin = roleAbilities('ADMIN');
    const superAdmin = roleAbilities('SYSTEM_ADMIN');
    expect(superAdmin.cannot).toEqual([]);
    expect(admin.can.length).toBeGreaterThan(0);
    // The same sentences split between can and cannot, none twice.
    expect([...admin.can, ...admin.cannot].sort()).toEqual([...superAdmin.can].sort());
    expect(admin.can).toContain('Add, edit and delete rice varieties, pests and diseases');
    expect(admin.cannot).toContain('Add, edit, restrict and delete admin accounts');
    expect(can('ADMIN', 'accounts.manage')).toBe(false);
  });
});

describe('the Add New Admin form', () => {
  const base = { fullname: 'Maria Clara', email: 'maria@da.example', username: 'maria_clara', role: 'ADMIN' as const };
  it('checks the typed password only when one is typed, not for an invitation', () => {
    expect(accountAddFormSchema.safeParse({ ...base, method: 'invite', password: '' }).success).toBe(true);
    const weak = accountAddFormSchema.safeParse({ ...base, method: 'password', password: 'weak' });
    expect(weak.success).toBe(false);
    expect(weak.error!.issues[0]!.path).toEqual(['password']);
    expect(accountAddFormSchema.safeParse({ ...base, method: 'password', password: 'Palay#2025' }).success).toBe(true);
  });
});
