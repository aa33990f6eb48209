import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNTS } from '../../common/accounts.js';
import { accountsRepository } from '../../server/modules/identity/accounts/repository.js';
import { createAccountsService } from '../../server/modules/identity/accounts/service.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { newAdminBody, superAdminSession } from '../fixtures/accounts.js';
import type { TestAccount } from '../fixtures/factories.js';

// The real hasher, unless a test makes it fail (a thread pool gone, a hasher returning the plain
// text). A module mock: this file runs in a process of its own (*.isolated.test.ts, vitest.config.ts).
const hashing = vi.hoisted(() => ({ instead: null as null | ((plain: string) => Promise<string>) }));
vi.mock('../../server/platform/identity/passwords.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/platform/identity/passwords.js')>();
  return { ...real, hashPassword: (plain: string) => (hashing.instead ? hashing.instead(plain) : real.hashPassword(plain)) };
});

const M = ACCOUNTS.messages;

let t: TestApp;
let su: { account: TestAccount; cookie: string };
beforeAll(async () => {
  t = await createTestApp();
  su = await superAdminSession(t.app, t.ctx);
});
afterAll(async () => {
  await t.close();
});

describe('create', () => {
  it('fails the save, storing nothing, when hashing fails', async () => {
    const service = createAccountsService(t.ctx);
    const auth = {
      sessionId: 'x',
      reauthAt: null,
      role: 'SYSTEM_ADMIN' as const,
      user: { id: su.account.id } as never,
      account: {} as never,
      actor: { id: su.account.id, fullname: su.account.fullname, email: su.account.email },
    };
    const body = newAdminBody();
    try {
      hashing.instead = async () => {
        throw new Error('thread pool exhausted');
      };
      await expect(service.create(body, auth)).rejects.toMatchObject({ code: 'INTERNAL', message: M.passwordNotSaved });
      hashing.instead = async (plain) => plain;
      await expect(service.create(body, auth)).rejects.toMatchObject({ code: 'INTERNAL', message: M.passwordNotSaved });
    } finally {
      hashing.instead = null;
    }
    expect(await accountsRepository.findByIdentifier(t.ctx.db, body.username)).toBeUndefined();
    const audits = await t.ctx.db.selectFrom('audit_logs').select('id').where('description', 'like', `%${body.username}%`).execute();
    expect(audits).toHaveLength(0);
  });
});
