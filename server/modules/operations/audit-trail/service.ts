import path from 'node:path';
import { Readable } from 'node:stream';
import { AUDIT_TRAIL, AUDIT_TRAIL_LIMITS } from '../../../../common/audit-trail.js';
import { HISTORY_CSV_COLUMNS, HISTORY_CSV_REPEATED_COLUMNS, historyCsvRow } from '../../../../common/history-csv.js';
import type { AuditTrailStatus, AuditVerification } from '../../../../common/schemas/audit-trail.js';
import type { AuditVerificationsTable } from '../../../db/types/audit.js';
import { takePeriodSlot } from '../../../platform/background/period-slot.js';
import { sealAuditChain, SYSTEM_ACTOR, type Actor } from '../../../platform/writes/audit.js';
import { runCommand } from '../../../platform/writes/command.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { createMailer } from '../../../platform/support/mail.js';
import { csvFile, type CsvRow } from '../../../platform/spreadsheets/csv-file.js';
import { readAnchors, writeAnchorFile, type Anchor } from './anchors.js';
import { archiveDir, listArchives, openArchive, writeArchive } from './archive.js';
import { verifyAuditTrail } from './check.js';
import { auditTrailRepository as repo, superAdminEmails } from './repository.js';
import { ChainWalker } from './verify.js';

/** The daily run's job in period_slots. */
const DAILY_RUN = 'daily audit trail run';

export interface RetentionResult {
  file: string;
  sha256: string;
  count: number;
  firstIndex: number;
  lastIndex: number;
}

const present = (row: AuditVerificationsTable): AuditVerification => ({
  id: row.id,
  status: row.status,
  trigger: row.trigger,
  startedAt: row.startedAt,
  finishedAt: row.finishedAt,
  checked: Number(row.checked),
  total: Number(row.total),
  problem: row.problem,
  problemIndex: row.problemIndex === null ? null : Number(row.problemIndex),
  problemId: row.problemId,
});

/**
 * The audit trail's integrity: background verification (`Verify now` and daily), anchors of the
 * chain's head, and retention (archive the oldest entries to a file, then remove them).
 */
export function createAuditTrailService(ctx: AppContext) {
  const { db, config, events } = ctx;
  const running = new Set<Promise<unknown>>();

  async function runVerification(id: string): Promise<void> {
    let lastWrite = 0;
    try {
      const { checks } = await readAnchors(config.dataDir);
      const result = await verifyAuditTrail(db, {
        anchors: checks,
        onProgress: (checked, total) => {
          const now = Date.now();
          if (now - lastWrite < 1000) return;
          lastWrite = now;
          void repo
            .updateVerification(db, id, { checked, total })
            .then(() => events.publish({ topic: 'audit_trail', op: 'progress' }))
            .catch(() => undefined);
        },
      });
      await repo.updateVerification(db, id, {
        status: result.ok ? 'ok' : 'failed',
        finishedAt: nowIso(),
        checked: result.checked,
        total: result.total,
        problem: result.problem?.message ?? null,
        problemIndex: result.problem?.index ?? null,
        problemId: result.problem?.id ?? null,
      });
      if (!result.ok) ctx.log.error({ problem: result.problem }, 'audit trail verification failed');
    } catch (err) {
      ctx.log.error({ err }, 'audit trail verification could not finish');
      await repo.updateVerification(db, id, { status: 'error', finishedAt: nowIso() }).catch(() => undefined);
    }
    events.publish({ topic: 'audit_trail', op: 'verified' });
  }

  function track<T>(work: Promise<T>): Promise<T> {
    running.add(work);
    void work.finally(() => running.delete(work)).catch(() => undefined);
    return work;
  }

  const service = {
    async status(): Promise<AuditTrailStatus> {
      const [head, entries, last, anchors, archives] = await Promise.all([
        repo.head(db),
        repo.chainedCount(db),
        repo.lastVerification(db),
        readAnchors(config.dataDir),
        listArchives(config.dataDir),
      ]);
      const newest = anchors.newest;
      return {
        head: { index: head.lastIndex, hash: head.lastHash, baseIndex: head.baseIndex, entries },
        last: last ? present(last) : null,
        lastAnchor: newest ? { index: newest.index, hash: newest.hash, count: newest.count, at: newest.at, file: newest.file } : null,
        retentionDays: config.auditRetentionDays ?? null,
        archives,
      };
    },

    /**
     * Starts a verification in the background and returns its row at once; while one runs
     * (on any instance, started within the last 30 minutes) that one is returned instead.
     */
    async startVerification(
      actor: Actor | null,
      trigger: 'manual' | 'daily' = 'manual',
    ): Promise<{ verification: AuditVerification; done: Promise<void> }> {
      const fresh = new Date(Date.now() - AUDIT_TRAIL_LIMITS.staleRunMs).toISOString();
      const current = await repo.runningVerification(db, fresh);
      if (current) return { verification: present(current), done: Promise.resolve() };
      const head = await repo.head(db);
      const row: AuditVerificationsTable = {
        id: newId(),
        startedAt: nowIso(),
        finishedAt: null,
        status: 'running',
        trigger,
        requestedBy: actor?.id ?? null,
        checked: 0,
        total: head.lastIndex - head.baseIndex,
        problem: null,
        problemIndex: null,
        problemId: null,
      };
      await repo.insertVerification(db, row);
      events.publish({ topic: 'audit_trail', op: 'started' });
      const done = track(runVerification(row.id));
      return { verification: present(row), done };
    },

    /** Writes the chain's head to DATA_DIR/audit-anchors and, with SMTP, emails it to the super admins. */
    async anchor(): Promise<Anchor & { file: string; emailed: number }> {
      await sealAuditChain(db);
      const [head, count] = await Promise.all([repo.head(db), repo.chainedCount(db)]);
      const anchor: Anchor = { index: head.lastIndex, hash: head.lastHash, count, at: nowIso(), instance: config.instanceId };
      const file = await writeAnchorFile(config.dataDir, anchor);
      let emailed = 0;
      if (config.smtpUrl) {
        const mailer = createMailer(config, ctx.log);
        try {
          for (const to of await superAdminEmails(db)) {
            await mailer.send({
              to,
              subject: AUDIT_TRAIL.anchorMail.subject(anchor.index),
              text: AUDIT_TRAIL.anchorMail.text(JSON.stringify(anchor, null, 2)),
            });
            emailed += 1;
          }
        } catch (err) {
          ctx.log.error({ err }, 'audit anchor email failed');
        } finally {
          mailer.close();
        }
      }
      events.publish({ topic: 'audit_trail', op: 'anchored' });
      return { ...anchor, file, emailed };
    },

    /**
     * Retention: the oldest entries (the longest start of the chain older than
     * AUDIT_RETENTION_DAYS) go to an archive file, which is read back and checked, and only
     * then leave the database, 1,000 per transaction; the chain's base moves with each batch,
     * so the live chain verifies at every moment. A summary entry records the archive.
     */
    async applyRetention(now = Date.now()): Promise<RetentionResult | null> {
      const days = config.auditRetentionDays;
      if (!days) return null;
      const cutoff = new Date(now - days * 86_400_000).toISOString();
      await sealAuditChain(db);
      const head = await repo.head(db);
      const stop = await repo.firstIndexFrom(db, head.baseIndex, cutoff);
      const throughIndex = (stop ?? head.lastIndex + 1) - 1;
      if (throughIndex <= head.baseIndex) return null;
      const throughHash = await repo.hashAt(db, throughIndex);
      if (!throughHash) throw new Error(`audit entry #${throughIndex} is missing; run npm run audit:verify`);
      const written = await writeArchive(
        db,
        config.dataDir,
        { baseIndex: head.baseIndex, baseHash: head.baseHash, throughIndex, throughHash },
        nowIso(),
      );

      // Read back before anything is removed: the file must hold exactly this part of the chain.
      const { rows } = await openArchive(written.file);
      const walker = new ChainWalker(head.baseIndex, head.baseHash);
      for await (const row of rows) if (!walker.step(row)) break;
      if (walker.problem || walker.lastIndex !== throughIndex || walker.prevHash !== throughHash) {
        throw new Error(
          `the archive ${written.file} does not read back as written (${walker.problem?.message ?? `ends at #${walker.lastIndex}`}); nothing was removed`,
        );
      }

      let after = head.baseIndex;
      while (after < throughIndex) {
        const end = Math.min(after + AUDIT_TRAIL_LIMITS.deleteBatch, throughIndex);
        // Chain maintenance, not a record's write: no audit entry of its own (the summary below is one).
        await runCommand(ctx, SYSTEM_ACTOR, async (trx) => {
          const endHash = await repo.hashAt(trx, end);
          if (!endHash) throw new Error(`audit entry #${end} vanished while archiving`);
          await repo.removeThrough(trx, after, end, endHash);
        });
        after = end;
      }
      const name = path.relative(config.dataDir, written.file);
      const count = throughIndex - head.baseIndex;
      await runCommand(ctx, SYSTEM_ACTOR, async (_trx, cmd) => {
        await cmd.audit({
          action: 'DELETE',
          collection: 'audit_logs',
          documentId: null,
          documentName: path.basename(written.file),
          description: AUDIT_TRAIL.summary(count, head.baseIndex + 1, throughIndex, days, name),
          details: {
            archive: name,
            sha256: written.sha256,
            firstIndex: head.baseIndex + 1,
            lastIndex: throughIndex,
            count,
            olderThan: cutoff,
          },
        });
        cmd.publish({ topic: 'audit_trail', op: 'archived' });
        cmd.publish({ topic: 'audit_logs', op: 'archived' });
      });
      return { file: written.file, sha256: written.sha256, count, firstIndex: head.baseIndex + 1, lastIndex: throughIndex };
    },

    /**
     * The daily run, its period slot taken so one instance does it: anchor, retention, verification.
     * The period starts at the run (a minute's slack for the hourly check's drift), not at midnight.
     */
    async daily(now = Date.now()): Promise<boolean> {
      const start = new Date(now).toISOString();
      const lastBefore = new Date(now - AUDIT_TRAIL_LIMITS.dailyEveryMs + 60_000).toISOString();
      if (!(await takePeriodSlot(db, DAILY_RUN, config.instanceId, start, lastBefore))) return false;
      await service.anchor();
      await service.applyRetention(now);
      await (
        await service.startVerification(null, 'daily')
      ).done;
      return true;
    },

    /** An archive's entries as the History export's CSV (same columns), streamed. */
    async archiveCsv(fileName: string): Promise<Readable> {
      const file = path.join(archiveDir(config.dataDir), path.basename(fileName));
      let opened;
      try {
        opened = await openArchive(file);
      } catch {
        fail('NOT_FOUND');
      }
      const { rows } = opened;
      async function* csvRows(): AsyncGenerator<CsvRow> {
        for await (const r of rows) {
          yield historyCsvRow({
            timestamp: r.timestamp,
            user: r.userName || r.userId || r.actorId || r.performedBy || '',
            action: r.action,
            collection: r.collection,
            document: r.documentName ?? r.name,
            description: r.description,
          });
        }
      }
      return Readable.from(csvFile(HISTORY_CSV_COLUMNS, csvRows(), { repeatedColumns: HISTORY_CSV_REPEATED_COLUMNS }), {
        objectMode: false,
      });
    },

    /** Waits for background verifications (server shutdown, tests). */
    async idle(): Promise<void> {
      await Promise.allSettled([...running]);
    },
  };
  return service;
}
