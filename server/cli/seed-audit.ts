import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Insertable, Kysely } from 'kysely';
import { loadConfig } from '../config.js';
import { createDb } from '../db/connection.js';
import { analyzeAfterBulkLoad, widenCacheForBulkLoad } from '../db/bulk-load.js';
import { migrateToLatest } from '../db/migrate.js';
import type { Database } from '../db/types.js';
import type { AuditLogsTable } from '../db/types/audit.js';
import { appendAuditRows, sealAuditChain } from '../platform/writes/audit.js';
import { runCommand } from '../platform/writes/command.js';
import { seededRandom } from '../platform/support/seeded-random.js';
import { accountsRecords } from '../modules/identity/accounts/index.js';

/**
 * npm run seed:audit -- 1000000 [--days 730] [--seed 42]
 * Fills the audit log with realistic entries for tests and benchmarks: the accounts of the
 * database as actors (plus the System User), the four collections, the six actions, changes
 * {before, after} on updates, blocked-login details, and about 2% older-style entries that
 * name the user in actorId / performedBy and the document in `name`. Timestamps rise with
 * seq across the last --days days. Rows go in as multi-row inserts, one transaction per batch.
 */

const VARIETY_PREFIXES = ['NSIC Rc', 'PSB Rc', 'NSIC 2019 Rc', 'NSIC 2021 Rc'];
const PESTS = [
  'Rice black bug',
  'Golden apple snail',
  'Brown planthopper',
  'Green leafhopper',
  'Yellow stem borer',
  'White stem borer',
  'Rice bug',
  'Rice leaffolder',
  'Rice whorl maggot',
  'Armyworm',
  'Rice caseworm',
  'Field rat',
  'Mole cricket',
  'Rice thrips',
  'Zigzag leafhopper',
];
const DISEASES = [
  'Rice blast',
  'Bacterial leaf blight',
  'Sheath blight',
  'Rice tungro',
  'Brown spot',
  'False smut',
  'Sheath rot',
  'Bakanae',
  'Grassy stunt',
  'Ragged stunt',
  'Narrow brown leaf spot',
  'Bacterial leaf streak',
  'Stem rot',
  'Leaf scald',
];
const PEOPLE = [
  'Maria Santos',
  'Jose Dela Cruz',
  'Ana Reyes',
  'Mark Villanueva',
  'Liza Bautista',
  'Paolo Mendoza',
  'Grace Aquino',
  'Ramon Garcia',
  'Cristina Ramos',
  'Noel Fernandez',
  'Joy Castillo',
  'Arnel Navarro',
];
const LOCATIONS = [
  'Tarlac City',
  'Capas',
  'Concepcion',
  'Gerona',
  'Paniqui',
  'Camiling',
  'Victoria',
  'La Paz',
  'Moncada',
  'San Manuel',
  'Bamban',
  'Mayantoc',
];
const SEASONS = [['Dry'], ['Wet'], ['Dry', 'Wet']];

interface ActorRow {
  id: string;
  fullname: string;
  email: string | null;
}
type Row = Insertable<AuditLogsTable>;

export function entryFactory(actors: ActorRow[], random: () => number) {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const system: ActorRow = { id: 'system', fullname: 'System User', email: null };
  // Entries about one document share its id, as they do in a real log.
  const documentIds = new Map<string, string>();
  const variety = () => `${pick(VARIETY_PREFIXES)} ${100 + Math.floor(random() * 500)}${random() < 0.3 ? 'H' : ''}`;

  return (timestamp: string): Row => {
    const actor = random() < 0.01 || actors.length === 0 ? system : pick(actors);
    const roll = random();
    let action: string;
    let collection: string;
    if (roll < 0.05) {
      action = 'LOGIN';
      collection = 'accounts';
    } else if (roll < 0.08) {
      action = 'RESTRICT';
      collection = 'accounts';
    } else if (roll < 0.1) {
      action = 'UNRESTRICT';
      collection = 'accounts';
    } else {
      const a = random();
      action = a < 0.3 ? 'CREATE' : a < 0.85 ? 'UPDATE' : 'DELETE';
      const c = random();
      collection = c < 0.45 ? 'rice_seed_varieties' : c < 0.68 ? 'rice_local_pests' : c < 0.9 ? 'rice_local_diseases' : 'accounts';
    }
    let documentName: string;
    let description: string;
    let changes: unknown = null;
    let details: unknown = null;
    switch (collection) {
      case 'rice_seed_varieties': {
        documentName = variety();
        const loc = pick(LOCATIONS);
        if (action === 'UPDATE') {
          const avg = Math.round((3 + random() * 4) * 10) / 10;
          changes =
            random() < 0.5
              ? {
                  before: { averageYield: avg, location: loc },
                  after: { averageYield: Math.round((avg + 0.2) * 10) / 10, location: pick(LOCATIONS) },
                }
              : {
                  before: { season: pick(SEASONS), recommendedInTarlac: false },
                  after: { season: pick(SEASONS), recommendedInTarlac: true },
                };
        } else if (action === 'CREATE') {
          changes = {
            before: null,
            after: { varietyName: documentName, location: loc, season: pick(SEASONS), maturityDays: 100 + Math.floor(random() * 30) },
          };
        }
        description = `${action === 'CREATE' ? 'Created' : action === 'UPDATE' ? 'Updated' : 'Deleted'} rice variety ${documentName}`;
        break;
      }
      case 'rice_local_pests':
      case 'rice_local_diseases': {
        const pest = collection === 'rice_local_pests';
        documentName = pick(pest ? PESTS : DISEASES);
        if (action === 'UPDATE')
          changes = {
            before: { symptoms: 'Yellowing of leaves', images: 3 },
            after: { symptoms: 'Yellowing and drying of leaves', images: 4 },
          };
        description = `${action === 'CREATE' ? 'Created' : action === 'UPDATE' ? 'Updated' : 'Deleted'} ${pest ? 'pest' : 'disease'} ${documentName}`;
        break;
      }
      default: {
        const target = actors.length > 0 && random() < 0.7 ? pick(actors).fullname : pick(PEOPLE);
        documentName = target;
        if (action === 'LOGIN') {
          const deleted = random() < 0.3;
          description = deleted ? 'Blocked login: account deleted' : 'Blocked login: account restricted';
          details = { status: deleted ? 'active' : 'restricted', isRestricted: !deleted, isDeleted: deleted };
        } else if (action === 'RESTRICT') {
          description = `Restricted account ${target}`;
          changes = { before: { status: 'active', isRestricted: false }, after: { status: 'restricted', isRestricted: true } };
        } else if (action === 'UNRESTRICT') {
          description = `Unrestricted account ${target}`;
          changes = { before: { status: 'restricted', isRestricted: true }, after: { status: 'active', isRestricted: false } };
        } else {
          description = `${action === 'CREATE' ? 'Created' : action === 'UPDATE' ? 'Updated' : 'Deleted'} admin account ${target}`;
          if (action === 'UPDATE') changes = { before: { contactNo: '09171234567' }, after: { contactNo: '09181234567' } };
        }
      }
    }
    const documentId = documentIds.get(`${collection}:${documentName}`) ?? crypto.randomUUID();
    documentIds.set(`${collection}:${documentName}`, documentId);
    const legacy = random() < 0.02;
    const legacyField = random() < 0.5 ? 'actorId' : 'performedBy';
    return {
      id: crypto.randomUUID(),
      userId: legacy ? null : actor.id,
      userName: legacy ? null : actor.fullname,
      userEmail: legacy ? null : actor.email,
      timestamp,
      action,
      collection,
      documentId,
      documentName: legacy ? null : documentName,
      description,
      changes: changes ? JSON.stringify(changes) : null,
      details: details ? JSON.stringify(details) : null,
      actorId: legacy && legacyField === 'actorId' ? actor.id : null,
      performedBy: legacy && legacyField === 'performedBy' ? actor.id : null,
      name: legacy ? documentName : null,
    };
  };
}

/** Inserts `total` entries in transactions of `batch` rows; reports progress after each. */
export async function seedAudit(
  db: Kysely<Database>,
  options: { total: number; days?: number; seed?: number; batch?: number; now?: number; progress?: (done: number, total: number) => void },
): Promise<void> {
  const { total } = options;
  const days = options.days ?? 730;
  const batch = options.batch ?? 20_000;
  // Multi-row statements stay under SQLite's 32766 and PostgreSQL's 65535 parameters.
  const perStatement = 1000;
  // A seed number reproduces a database.
  const random = seededRandom(options.seed ?? 42);
  // A large page cache for this connection: the random-key index on id stays in memory.
  await widenCacheForBulkLoad(db);
  const actors = await accountsRecords.liveActors(db);
  const make = entryFactory(actors, random);
  const end = options.now ?? Date.now();
  const start = end - days * 86_400_000;
  const step = (end - start) / Math.max(1, total);
  let done = 0;
  while (done < total) {
    const n = Math.min(batch, total - done);
    // Made-up entries of many actors: appended as they are, no entry of the seeding's own.
    await runCommand({ db, events: null }, null, async (trx) => {
      for (let i = 0; i < n; i += perStatement) {
        const rows: Row[] = [];
        for (let j = i; j < Math.min(n, i + perStatement); j++) {
          const k = done + j;
          rows.push(make(new Date(Math.floor(start + k * step + random() * step)).toISOString()));
        }
        await appendAuditRows(trx, rows);
      }
    });
    done += n;
    await sealAuditChain(db);
    options.progress?.(done, total);
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { days: { type: 'string' }, seed: { type: 'string' }, batch: { type: 'string' } },
  });
  const total = Number(positionals[0] ?? '100000');
  if (!Number.isInteger(total) || total < 1) {
    console.error('Usage: npm run seed:audit -- <count> [--days 730] [--seed 42] [--batch 20000]');
    process.exit(2);
  }
  const config = loadConfig(process.env, { logLevel: 'warn' });
  const db = createDb(config);
  try {
    await migrateToLatest(db);
    const started = Date.now();
    let lastPrint = 0;
    await seedAudit(db, {
      total,
      days: values.days ? Number(values.days) : undefined,
      seed: values.seed ? Number(values.seed) : undefined,
      batch: values.batch ? Number(values.batch) : undefined,
      progress(done) {
        const now = Date.now();
        if (now - lastPrint < 500 && done < total) return;
        lastPrint = now;
        const rate = Math.round(done / Math.max(0.001, (now - started) / 1000));
        process.stdout.write(
          `\r${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} entries, ${rate.toLocaleString('en-US')} rows/s   `,
        );
      },
    });
    await analyzeAfterBulkLoad(db, 'audit_logs');
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `\nInserted ${total.toLocaleString('en-US')} audit entries in ${seconds.toFixed(1)} s (${Math.round(total / seconds).toLocaleString('en-US')} rows/s).\n`,
    );
  } finally {
    await db.destroy();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
