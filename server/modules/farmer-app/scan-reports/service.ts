import { addDays, manilaDate, mondayOf } from '../../../../common/history-dates.js';
import { canonicalMunicipality, SCAN_REPORT_LIMITS, SCAN_REPORT_TEXTS, TARLAC_MUNICIPALITIES } from '../../../../common/scan-reports.js';
import type { Detections, ScanReportInput } from '../../../../common/schemas/scan-reports.js';
import { runCommand } from '../../../platform/writes/command.js';
import { csvFileText } from '../../../platform/spreadsheets/csv-file.js';
import { nowIso } from '../../../platform/support/clock.js';
import { readStamps, recordsStamp, stampOf } from '../../../platform/cache/stamps.js';
import { keptValues } from '../../../platform/cache/kept.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { trainingClasses } from '../training/index.js';
import { createInstallTokens } from '../../../platform/identity/install-tokens.js';
import { modelsRecords } from '../models/index.js';
import { createReportIntake } from './intake.js';
import { scanReportsRepository as repo } from './repository.js';

const DAY_MS = 24 * 60 * 60_000;
const DISEASES = 'rice_local_diseases';

const DETECTIONS_CSV_COLUMNS = ['week_start', 'disease_id', 'disease', 'municipality', 'reports'];

export interface LabelInfo {
  diseaseId: string;
  trainingClass: boolean;
}

export function createScanReportsService(ctx: AppContext) {
  const installs = createInstallTokens(ctx);

  // The training set's labels (labels.txt), kept while the diseases' stamp is unchanged: the
  // catalog's and the trash's writes and the importer move it.
  async function labelMap(): Promise<Map<string, LabelInfo>> {
    const stamp = stampOf(await readStamps(ctx.db), recordsStamp(DISEASES));
    return keptValues<Map<string, LabelInfo>>(ctx.db, 'scan-reports/labels', 1).get('', stamp, async () => {
      const classes = await trainingClasses(ctx);
      return new Map(classes.map((c) => [c.label, { diseaseId: c.id, trainingClass: c.trainingClass }]));
    });
  }

  // The dashboards follow reports live, at most one event a second however many arrive.
  let lastEvent = 0;
  let pending: NodeJS.Timeout | null = null;
  function announce(): void {
    const now = Date.now();
    const wait = lastEvent + SCAN_REPORT_LIMITS.liveEventEveryMs - now;
    if (wait <= 0) {
      lastEvent = now;
      ctx.events.publish({ topic: 'scan_reports', id: null, op: 'create' });
    } else if (!pending) {
      pending = setTimeout(() => {
        pending = null;
        announce();
      }, wait);
      pending.unref();
    }
  }

  const intake = createReportIntake(
    ctx,
    {
      perInstall: ctx.config.scanReportsPerInstallPerMinute,
      perAddress: ctx.config.scanReportsPerIpPerMinute,
      perDeployment: ctx.config.scanReportsPerMinute,
      windowMs: 60_000,
    },
    announce,
  );

  async function diseaseNames(): Promise<Map<string, string>> {
    const rows = await repo.diseases(ctx.db);
    return new Map(rows.filter((r) => r.isTrainingClass === 0).map((r) => [r.id, r.name]));
  }

  return {
    close(): void {
      if (pending) clearTimeout(pending);
    },

    /** An install's id and token, for a registration from `address`. */
    registerInstall: (address: string) => installs.register(address),

    /**
     * Checks one report from the install of `authorization`, sent from `address`, and stores it
     * once per reportId within the install's, the address's and the deployment's limits.
     */
    async submit(
      input: ScanReportInput,
      authorization: string | undefined,
      address: string,
      now = Date.now(),
    ): Promise<{ reportId: string; status: 'accepted' | 'duplicate' }> {
      const installId = await installs.installOf(authorization);
      if (input.installId !== undefined && input.installId !== installId) invalid({ installId: SCAN_REPORT_TEXTS.installIdMismatch });
      const info = (await labelMap()).get(input.label);
      if (!info) invalid({ label: SCAN_REPORT_TEXTS.unknownLabel });
      let municipality: string | null = null;
      if (input.municipality) {
        municipality = canonicalMunicipality(input.municipality);
        if (!municipality) invalid({ municipality: SCAN_REPORT_TEXTS.unknownMunicipality });
      }
      const scanned = Date.parse(input.scannedAt);
      if (scanned > now + SCAN_REPORT_LIMITS.maxClockSkewMs) invalid({ scannedAt: SCAN_REPORT_TEXTS.futureScan });
      // Never older than the reports kept, whichever setting is shorter.
      const maxAgeDays = Math.min(ctx.config.scanReportMaxAgeDays, ctx.config.scanReportRetentionDays);
      if (scanned < now - maxAgeDays * DAY_MS) invalid({ scannedAt: SCAN_REPORT_TEXTS.tooOld(maxAgeDays) });
      // Reports are not audited (the farmer app is anonymous); the dashboards hear of them after commit.
      const outcome = await intake.submit(
        {
          id: input.reportId,
          label: input.label,
          diseaseId: info.diseaseId,
          confidence: input.confidence,
          modelVersion: input.modelVersion,
          scannedAt: new Date(scanned).toISOString(),
          receivedAt: new Date(now).toISOString(),
          municipality,
          barangay: input.barangay || null,
          installId,
        },
        address,
      );
      if (outcome.status === 'limited') {
        fail('RATE_LIMITED', SCAN_REPORT_TEXTS.limited[outcome.limit], undefined, {
          retryAfterSeconds: Math.max(1, Math.ceil(outcome.retryAfterMs / 1000)),
        });
      }
      return { reportId: input.reportId, status: outcome.status };
    },

    /** The dashboard's Detections: 12 weeks per disease, the 30-day top list, municipalities. */
    async detections(diseaseId: string | undefined, now = Date.now()): Promise<Detections> {
      const today = manilaDate(now);
      const firstWeek = addDays(mondayOf(today), -7 * (SCAN_REPORT_LIMITS.weeks - 1));
      const weeks = Array.from({ length: SCAN_REPORT_LIMITS.weeks }, (_, i) => addDays(firstWeek, 7 * i));
      const topFrom = addDays(today, -(SCAN_REPORT_LIMITS.topDays - 1));
      const names = await diseaseNames();
      if (diseaseId && !names.has(diseaseId)) fail('NOT_FOUND');

      const perWeek = new Map<string, number[]>();
      const weekIndex = new Map(weeks.map((w, i) => [w, i]));
      for (const row of await repo.perDiseaseWeek(ctx.db, firstWeek)) {
        if (!names.has(row.diseaseId) || !weekIndex.has(row.week)) continue;
        const counts = perWeek.get(row.diseaseId) ?? new Array<number>(weeks.length).fill(0);
        counts[weekIndex.get(row.week)!]! += row.n;
        perWeek.set(row.diseaseId, counts);
      }
      const last30 = new Map((await repo.perDisease(ctx.db, topFrom)).filter((r) => names.has(r.diseaseId)).map((r) => [r.diseaseId, r.n]));
      const series = [...perWeek]
        .filter(([id]) => !diseaseId || id === diseaseId)
        .map(([id, counts]) => ({ diseaseId: id, name: names.get(id)!, counts, total: counts.reduce((a, b) => a + b, 0) }))
        .sort((a, b) => b.total - a.total || a.name.localeCompare(b.name));
      const top = [...last30]
        .map(([id, reports]) => ({ diseaseId: id, name: names.get(id)!, reports }))
        .sort((a, b) => b.reports - a.reports || a.name.localeCompare(b.name))
        .slice(0, SCAN_REPORT_LIMITS.topCount);

      const byPlace = new Map((await repo.perMunicipality(ctx.db, topFrom, diseaseId)).map((r) => [r.municipality, r.n]));
      const municipalities: Detections['municipalities'] = [
        ...TARLAC_MUNICIPALITIES.map((m) => ({ municipality: m as string | null, reports: byPlace.get(m) ?? 0 })),
        { municipality: null, reports: byPlace.get('') ?? 0 },
      ];
      // A version the console never had (an old bundled model, a typo) is kept and marked, not dropped.
      const known = await modelsRecords.versions(ctx.db);
      const models = (await repo.perModelVersion(ctx.db, topFrom, diseaseId))
        .map((r) => ({ modelVersion: r.modelVersion, reports: r.n, known: known.has(r.modelVersion) }))
        .sort((a, b) => b.reports - a.reports || a.modelVersion.localeCompare(b.modelVersion));
      return {
        weeks,
        series,
        top,
        municipalities,
        models,
        diseases: [...names].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)),
        diseaseId: diseaseId ?? null,
        generatedAt: new Date(now).toISOString(),
      };
    },

    /** The 12 weeks' reports per week, disease and municipality, as CSV. */
    async detectionsCsv(diseaseId: string | undefined, now = Date.now()): Promise<string> {
      const today = manilaDate(now);
      const firstWeek = addDays(mondayOf(today), -7 * (SCAN_REPORT_LIMITS.weeks - 1));
      const names = await diseaseNames();
      if (diseaseId && !names.has(diseaseId)) fail('NOT_FOUND');
      const weeks = Array.from({ length: SCAN_REPORT_LIMITS.weeks }, (_, i) => addDays(firstWeek, 7 * i));
      const rank = new Map([...names].sort((a, b) => a[1].localeCompare(b[1])).map(([id], i) => [id, i]));
      const rows = (await repo.perWeekDiseasePlace(ctx.db, firstWeek, diseaseId)).filter(
        (r) => names.has(r.diseaseId) && weeks.includes(r.week),
      );
      rows.sort(
        (a, b) =>
          (a.week < b.week ? -1 : a.week > b.week ? 1 : 0) ||
          rank.get(a.diseaseId)! - rank.get(b.diseaseId)! ||
          (a.municipality < b.municipality ? -1 : a.municipality > b.municipality ? 1 : 0),
      );
      return csvFileText(
        DETECTIONS_CSV_COLUMNS,
        rows.map((e) => [e.week, e.diseaseId, names.get(e.diseaseId)!, e.municipality, Number(e.n)]),
      );
    },

    /**
     * Deletes reports scanned more than SCAN_REPORT_RETENTION_DAYS ago, in batches (writers
     * wait for one batch at most), then their daily counts; the total goes to the audit log.
     */
    async purgeOld(now = Date.now()): Promise<number> {
      const days = ctx.config.scanReportRetentionDays;
      const cutoff = now - days * DAY_MS;
      const before = new Date(cutoff).toISOString();
      let total = 0;
      for (;;) {
        const n = await runCommand(ctx, null, (trx) => repo.deleteBatch(trx, before, SCAN_REPORT_LIMITS.retentionBatch));
        total += n;
        if (n < SCAN_REPORT_LIMITS.retentionBatch) break;
      }
      await runCommand(ctx, null, async (trx, cmd) => {
        // Whole days and weeks only: the counts of the cut-off's own day and week stay a while longer.
        const day = manilaDate(cutoff);
        await repo.deleteCountsBefore(trx, day, mondayOf(day));
        if (total > 0) {
          await cmd.audit({
            action: 'DELETE',
            collection: SCAN_REPORT_TEXTS.audit.collection,
            documentId: null,
            documentName: SCAN_REPORT_TEXTS.audit.name,
            description: SCAN_REPORT_TEXTS.audit.purged(total, days),
            details: { removed: total, olderThan: before, at: nowIso() },
          });
          cmd.publish({ topic: 'scan_reports', id: null, op: 'delete' });
        }
      });
      return total;
    },
  };
}
