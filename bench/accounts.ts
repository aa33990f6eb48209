/**
 * Admin accounts benchmark: list/search/availability latency over many accounts and a large
 * audit log (the "has activities" flag is computed per row), and the auto-inactivation sweep.
 *
 *   npx tsx bench/accounts.ts                      # SQLite in a temp folder
 *   TEST_DB=postgres TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/accounts.ts
 *   ACCOUNTS=2000 AUDIT=100000 STALE=500 ROUNDS=200 npx tsx bench/accounts.ts
 */
import bcrypt from 'bcrypt';
import { createTestApp } from '../tests/fixtures/app.js';
import { superAdminSession } from '../tests/fixtures/accounts.js';
import { createAccountsService } from '../server/modules/identity/accounts/service.js';

const N_ACCOUNTS = Number(process.env.ACCOUNTS ?? 2000);
const N_AUDIT = Number(process.env.AUDIT ?? 100_000);
const N_STALE = Number(process.env.STALE ?? 500);
const ROUNDS = Number(process.env.ROUNDS ?? 200);

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
function report(label: string, samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)} n=${String(s.length).padStart(4)}  p50=${pct(s, 50).toFixed(2)} ms  p99=${pct(s, 99).toFixed(2)} ms  max=${s[s.length - 1]!.toFixed(2)} ms`,
  );
}

const t = await createTestApp();
try {
  const su = await superAdminSession(t.app, t.ctx);
  const hash = await bcrypt.hash('Bench#2025', 10);
  const now = Date.now();
  const ids: string[] = [];
  let started = performance.now();
  for (let i = 0; i < N_ACCOUNTS; i += 500) {
    const batch = Array.from({ length: Math.min(500, N_ACCOUNTS - i) }, (_, j) => {
      const k = i + j;
      const id = `bench-${k}`;
      ids.push(id);
      return {
        id,
        fullname: `Bench Person ${k} ${k % 7 === 0 ? 'Santos' : 'Reyes'}`,
        username: `bench_user_${k}`,
        normalizedUsername: `bench_user_${k}`,
        email: `bench_${k}@da.example`,
        normalizedEmail: `bench_${k}@da.example`,
        contactNo: null,
        photoURL: null,
        password: hash,
        securityQuestion: null,
        securityAnswer: null,
        role: k % 10 === 0 ? 'SYSTEM_ADMIN' : 'ADMIN',
        status: 'active',
        restrictedAt: null,
        autoInactiveAt: null,
        currentSession: null,
        // The first N_STALE last logged in 9 days ago; the rest yesterday.
        lastLogin: new Date(now - (k < N_STALE ? 9 : 1) * 86_400_000).toISOString(),
        lastLogoutAt: null,
        createdAt: new Date(now - k * 60_000).toISOString(),
        updatedAt: null,
        deletedAt: null,
        deletedBy: null,
      };
    });
    await t.ctx.db.insertInto('accounts').values(batch).execute();
  }
  // Audit entries acted by the first half of the accounts (the other half has no activities).
  for (let i = 0; i < N_AUDIT; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, N_AUDIT - i) }, (_, j) => {
      const k = i + j;
      return {
        id: `bench-audit-${k}`,
        userId: ids[k % Math.ceil(N_ACCOUNTS / 2)]!,
        userName: 'Bench',
        userEmail: null,
        timestamp: new Date(now - k * 1000).toISOString(),
        action: k % 5 === 0 ? 'LOGIN' : 'UPDATE',
        collection: 'rice_seed_varieties',
        documentId: 'v',
        documentName: 'NSIC Rc 222',
        description: null,
        changes: null,
        details: null,
        actorId: null,
        performedBy: null,
        name: null,
      };
    });
    await t.ctx.db.insertInto('audit_logs').values(batch).execute();
  }
  console.log(
    `engine=${t.engine} accounts=${N_ACCOUNTS + 1} audit=${N_AUDIT} stale=${N_STALE} seeded in ${(performance.now() - started).toFixed(0)} ms`,
  );

  // The auto-inactivation sweep over N_STALE accounts (each its own transaction + audit entry + event).
  const service = createAccountsService(t.ctx);
  started = performance.now();
  const changed = await service.sweepInactive();
  const sweepMs = performance.now() - started;
  console.log(
    `auto-inactivation sweep: ${changed.length} accounts in ${sweepMs.toFixed(0)} ms (${(sweepMs / Math.max(1, changed.length)).toFixed(2)} ms per account)`,
  );
  const idle: number[] = [];
  for (let i = 0; i < 50; i += 1) {
    const s = performance.now();
    const again = await service.sweepInactive();
    idle.push(performance.now() - s);
    if (again.length !== 0) throw new Error('a second sweep changed accounts');
  }
  report('no-op sweep (every list load)', idle);

  const headers = { cookie: su.cookie };
  async function measure(label: string, url: () => string) {
    const samples: number[] = [];
    for (let i = 0; i < 10; i += 1) await t.app.inject({ url: url(), headers });
    for (let i = 0; i < ROUNDS; i += 1) {
      const s = performance.now();
      const res = await t.app.inject({ url: url(), headers });
      samples.push(performance.now() - s);
      if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`);
    }
    report(label, samples);
  }
  let i = 0;
  await measure('GET /api/accounts (page 1)', () => '/api/accounts');
  await measure('GET /api/accounts?page=50', () => '/api/accounts?page=50');
  await measure('GET /api/accounts?q=santos (name)', () => '/api/accounts?q=santos');
  await measure('GET /api/accounts?q=<unique username>', () => `/api/accounts?q=bench_user_${(i++ * 37) % N_ACCOUNTS}`);
  await measure('GET /api/accounts?q=nomatch', () => '/api/accounts?q=nomatch');
  await measure(
    'GET /api/accounts/availability (username)',
    () => `/api/accounts/availability?field=username&value=bench_user_${(i++ * 13) % N_ACCOUNTS}`,
  );
  await measure(
    'GET /api/accounts/availability (email, free)',
    () => `/api/accounts/availability?field=email&value=free_${i++}@da.example`,
  );

  // Creates are bound by bcrypt (cost 10) by design.
  const creates: number[] = [];
  for (let k = 0; k < 20; k += 1) {
    const s = performance.now();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts',
      headers,
      payload: {
        fullname: `Created ${k}`,
        email: `created_${k}@da.example`,
        username: `created_user_${k}`,
        password: 'Palay#2025',
        role: 'ADMIN',
      },
    });
    creates.push(performance.now() - s);
    if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  }
  report('POST /api/accounts (bcrypt cost 10)', creates);
} finally {
  await t.close();
}
