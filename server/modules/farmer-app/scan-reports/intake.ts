import { manilaDate, mondayOf } from '../../../../common/history-dates.js';
import type { ScanReportsTable } from '../../../db/types/scan-reports.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { AppContext } from '../../../platform/http/context.js';
import { countHits, pruneThrottles } from '../../../platform/identity/throttle.js';
import { scanReportsRepository as repo } from './repository.js';

/** What limited a refused report. */
export type ReportLimit = 'install' | 'address' | 'deployment';

export type IntakeOutcome = { status: 'accepted' | 'duplicate' } | { status: 'limited'; limit: ReportLimit; retryAfterMs: number };

export interface IntakeLimits {
  perInstall: number;
  perAddress: number;
  perDeployment: number;
  windowMs: number;
}

interface Waiting {
  row: ScanReportsTable;
  address: string;
  resolve(outcome: IntakeOutcome): void;
  reject(err: unknown): void;
}

/** Reports written in one transaction at most. */
const MAX_BATCH = 256;
/** Expired limit rows are swept after this many batches. */
const PRUNE_EVERY_BATCHES = 1000;
/** Keys remembered as over budget before the expired ones are swept. */
const MAX_KNOWN_SPENT = 100_000;
/** A batch that PostgreSQL aborts as a deadlock victim (a sweep of expired rows) is tried again. */
const DEADLOCK_RETRIES = 3;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The way scan reports reach the database. Reports that arrive while a batch is being written
 * wait for the next one, so a busy server commits many reports per transaction and a quiet one
 * writes each at once (no timer). In each batch's transaction, every report is first counted
 * against its install's, its address's and the deployment's per-minute budgets (throttles, one
 * statement, shared by every instance), then only the reports within all three are stored and
 * added to the daily and weekly counts, and the refused ones' hits are given back (the budgets
 * count reports taken). A key known to be over its budget is refused without
 * touching the database until its window ends: that can only refuse more, never admit more.
 */
export function createReportIntake(ctx: AppContext, limits: IntakeLimits, onStored: () => void) {
  const queue: Waiting[] = [];
  const spent = new Map<string, number>();
  let writing = false;
  let batches = 0;

  const keysOf = (w: { row: ScanReportsTable; address: string }) =>
    [`scan-install:${w.row.installId}`, `scan-address:${w.address}`, 'scan-deployment'] as const;
  const LIMITS: ReportLimit[] = ['install', 'address', 'deployment'];
  const budgetOf = (key: string) =>
    key.startsWith('scan-install:') ? limits.perInstall : key.startsWith('scan-address:') ? limits.perAddress : limits.perDeployment;

  function knownSpent(w: { row: ScanReportsTable; address: string }, now: number): IntakeOutcome | null {
    const keys = keysOf(w);
    for (const [i, key] of keys.entries()) {
      const until = spent.get(key);
      if (until !== undefined && until > now) return { status: 'limited', limit: LIMITS[i]!, retryAfterMs: until - now };
    }
    return null;
  }

  async function writeBatch(batch: Waiting[], now: number): Promise<IntakeOutcome[]> {
    return runCommand(ctx, null, async (trx, cmd) => {
      const hits = new Map<string, number>();
      for (const w of batch) for (const key of keysOf(w)) hits.set(key, (hits.get(key) ?? 0) + 1);
      const counted = await countHits(trx, hits, limits.windowMs, now);
      // Each key's room in this batch: its budget less what was counted before the batch.
      const room = new Map<string, number>();
      for (const [key, n] of hits) {
        const c = counted.get(key)!;
        room.set(key, Math.max(0, Math.min(n, budgetOf(key) - (c.count - n))));
      }
      const outcomes: Array<IntakeOutcome | null> = batch.map((w) => {
        const keys = keysOf(w);
        const full = keys.findIndex((key) => room.get(key)! <= 0);
        if (full >= 0) return { status: 'limited', limit: LIMITS[full]!, retryAfterMs: counted.get(keys[full])!.resetAt - now };
        for (const key of keys) room.set(key, room.get(key)! - 1);
        return null;
      });
      // The budgets count reports taken: each refused report's hits are given back, in this transaction.
      const refunds = new Map<string, number>();
      batch.forEach((w, i) => {
        if (outcomes[i]) for (const key of keysOf(w)) refunds.set(key, (refunds.get(key) ?? 0) - 1);
      });
      await countHits(trx, refunds, limits.windowMs, now);
      cmd.afterCommit(() => {
        for (const [key, c] of counted) if (c.count + (refunds.get(key) ?? 0) >= budgetOf(key)) spent.set(key, c.resetAt);
      });

      // Within the budgets: stored once per id (rows in id order, as the counts below: one lock order).
      const admitted = new Map<string, ScanReportsTable>();
      batch.forEach((w, i) => {
        if (!outcomes[i] && !admitted.has(w.row.id)) admitted.set(w.row.id, w.row);
      });
      const inserted = await repo.insertNew(
        trx,
        [...admitted.values()].sort((a, b) => compare(a.id, b.id)),
      );
      const days = new Map<string, { day: string; diseaseId: string; municipality: string; reports: number }>();
      const weeks = new Map<string, { week: string; diseaseId: string; municipality: string; reports: number }>();
      const models = new Map<string, { day: string; modelVersion: string; diseaseId: string; reports: number }>();
      for (const id of inserted) {
        const row = admitted.get(id)!;
        const day = manilaDate(Date.parse(row.scannedAt));
        const week = mondayOf(day);
        const diseaseId = row.diseaseId!;
        const municipality = row.municipality ?? '';
        const dayKey = `${day}\n${diseaseId}\n${municipality}`;
        const weekKey = `${week}\n${diseaseId}\n${municipality}`;
        const d = days.get(dayKey) ?? days.set(dayKey, { day, diseaseId, municipality, reports: 0 }).get(dayKey)!;
        d.reports += 1;
        const k = weeks.get(weekKey) ?? weeks.set(weekKey, { week, diseaseId, municipality, reports: 0 }).get(weekKey)!;
        k.reports += 1;
        const modelKey = `${day}\n${row.modelVersion}\n${diseaseId}`;
        const m =
          models.get(modelKey) ?? models.set(modelKey, { day, modelVersion: row.modelVersion, diseaseId, reports: 0 }).get(modelKey)!;
        m.reports += 1;
      }
      const inOrder = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => compare(a, b)).map(([, v]) => v);
      await repo.addCounts(trx, inOrder(days), inOrder(weeks), inOrder(models));
      if (inserted.size > 0) cmd.afterCommit(onStored);

      // A report whose id was stored before, or earlier in this batch, is a duplicate.
      const firsts = new Set<string>();
      return batch.map((w, i): IntakeOutcome => {
        const limited = outcomes[i];
        if (limited) return limited;
        const first = inserted.has(w.row.id) && !firsts.has(w.row.id);
        firsts.add(w.row.id);
        return { status: first ? 'accepted' : 'duplicate' };
      });
    });
  }

  async function writeWithRetry(batch: Waiting[]): Promise<IntakeOutcome[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await writeBatch(batch, Date.now());
      } catch (err) {
        if ((err as { code?: string }).code !== '40P01' || attempt >= DEADLOCK_RETRIES) throw err;
      }
    }
  }

  async function drain(): Promise<void> {
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, MAX_BATCH);
        try {
          const outcomes = await writeWithRetry(batch);
          batch.forEach((w, i) => w.resolve(outcomes[i]!));
        } catch (err) {
          for (const w of batch) w.reject(err);
        }
        batches += 1;
        if (batches % PRUNE_EVERY_BATCHES === 0 || spent.size > MAX_KNOWN_SPENT) await sweep();
      }
    } finally {
      writing = false;
    }
  }

  async function sweep(): Promise<void> {
    const now = Date.now();
    for (const [key, until] of spent) if (until <= now) spent.delete(key);
    await pruneThrottles(ctx.db, now).catch((err: unknown) => ctx.log.warn({ err }, 'scan-report limits: sweeping expired rows failed'));
  }

  return {
    /** Counts the report against its limits and stores it unless a limit is spent or it was stored before. */
    submit(row: ScanReportsTable, address: string): Promise<IntakeOutcome> {
      const known = knownSpent({ row, address }, Date.now());
      if (known) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        queue.push({ row, address, resolve, reject });
        if (!writing) {
          // Let the requests already read from the sockets join this batch.
          writing = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
