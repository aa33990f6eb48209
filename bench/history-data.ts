/** The history benchmark's data: its PostgreSQL schema, the staff as actors and the audit entries. */
import pg from 'pg';
import { sql } from 'kysely';
import { seedAudit } from '../server/cli/seed-audit.js';
import { createDb } from '../server/db/connection.js';
import { migrateToLatest } from '../server/db/migrate.js';
import { createAccount } from '../server/modules/identity/accounts/create-account.js';

export const PASSWORD = 'Bench#Pass1';
const STAFF = [
  'Elena Reyes',
  'Maria Santos',
  'Jose Dela Cruz',
  'Ana Reyes',
  'Mark Villanueva',
  'Liza Bautista',
  'Paolo Mendoza',
  'Grace Aquino',
];

/** The URL of a schema of its own in the --pg database, one per size (kept, so it is reused). */
export async function historySchemaUrl(pgUrl: string, rows: number): Promise<string> {
  const schema = `bench_history_${rows}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create schema if not exists ${schema}`);
  await admin.end();
  const u = new URL(pgUrl);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

/** Accounts as actors (bench_user_0 the super admin), then the entries (skipped when already there). */
export async function seedHistory(options: {
  dataDir: string;
  databaseUrl: string | undefined;
  rows: number;
  engine: string;
}): Promise<void> {
  const { dataDir, databaseUrl, rows, engine } = options;
  const db = createDb({ dataDir, databaseUrl });
  await migrateToLatest(db);
  for (const [i, fullname] of STAFF.entries()) {
    const exists = await db.selectFrom('accounts').select('id').where('normalizedUsername', '=', `bench_user_${i}`).executeTakeFirst();
    if (!exists)
      await createAccount(
        db,
        {
          username: `bench_user_${i}`,
          password: PASSWORD,
          fullname,
          email: `bench${i}@da.example`,
          role: i === 0 ? 'SYSTEM_ADMIN' : 'ADMIN',
        },
        null,
      );
  }
  const have = Number(
    (
      await db
        .selectFrom('audit_logs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (have < rows) {
    const started = performance.now();
    let last = 0;
    await seedAudit(db, {
      total: rows - have,
      progress(done, total) {
        if (performance.now() - last < 1000 && done < total) return;
        last = performance.now();
        process.stdout.write(`\rgenerating: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
      },
    });
    const seconds = (performance.now() - started) / 1000;
    if (databaseUrl) await sql`analyze audit_logs`.execute(db);
    console.log(
      `\ngenerated ${(rows - have).toLocaleString('en-US')} entries in ${seconds.toFixed(1)} s = ${Math.round((rows - have) / seconds).toLocaleString('en-US')} rows/s (${engine})`,
    );
  } else {
    console.log(`reusing ${have.toLocaleString('en-US')} entries in ${databaseUrl ? 'PostgreSQL' : dataDir}`);
  }
  await db.destroy();
}
