import { ACCOUNTS } from '../../../../common/accounts.js';
import { TIMINGS } from '../../../../common/limits.js';
import { nowIso } from '../../../platform/support/clock.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { AppContext } from '../../../platform/http/context.js';
import { accountsRepository as repo } from './repository.js';

const DAY_MS = 86_400_000;

/** The accounts' auto-inactivation (run on a timer and before every accounts list). */
export function createInactivitySweep(ctx: AppContext) {
  const { db } = ctx;
  let sweeping: Promise<string[]> | null = null;

  /**
   * docs/PRODUCT.md section 4, auto-inactivation, done by the server: each account with a known
   * lastLogin, not restricted, status active, whose last login is 8 or more days old becomes
   * inactive. The update is conditional on the state it was read in, so an account changes (and
   * gets its audit entry and live event) once, however many loads or instances race.
   */
  async function runSweep(now: number): Promise<string[]> {
    const cutoff = new Date(now - TIMINGS.autoInactiveDays * DAY_MS).toISOString();
    const changed: string[] = [];
    for (const candidate of await repo.staleCandidates(db, cutoff)) {
      const last = Date.parse(candidate.lastLogin ?? '');
      if (Number.isNaN(last) || now - last < TIMINGS.autoInactiveDays * DAY_MS) continue;
      const at = nowIso();
      const changedNow = await runCommand(ctx, null, async (trx, cmd) => {
        if (!(await repo.markInactive(trx, candidate, at))) return false;
        await cmd.endSessions(candidate.id, 'inactivity');
        await cmd.audit({
          action: 'UPDATE',
          collection: 'accounts',
          documentId: candidate.id,
          documentName: candidate.fullname,
          description: ACCOUNTS.audit.autoInactive(TIMINGS.autoInactiveDays),
          changes: {
            before: { status: 'active', autoInactive: false, autoInactiveAt: null },
            after: { status: 'inactive', autoInactive: true, autoInactiveAt: at },
          },
        });
        cmd.publish({ topic: 'accounts', id: candidate.id, op: 'update' });
        return true;
      });
      if (changedNow) changed.push(candidate.id);
    }
    return changed;
  }

  return {
    /** One sweep at a time per process; a caller arriving mid-sweep waits for it. */
    sweepInactive(now = Date.now()): Promise<string[]> {
      if (!sweeping)
        sweeping = runSweep(now).finally(() => {
          sweeping = null;
        });
      return sweeping;
    },
    /** Waits for a running sweep (used when the server closes). */
    async idle(): Promise<void> {
      await sweeping?.catch(() => undefined);
    },
  };
}
