import crypto from 'node:crypto';
import { TRAINING_SET } from '../../../../common/catalog.js';
import { MODEL_LIMITS, MODEL_TEXTS, type ModelChannel, type ModelStage } from '../../../../common/models.js';
import type { Thresholds } from '../../../../common/schemas/models.js';
import type { PublicModel } from '../../../../common/schemas/public-models.js';
import type { ScannerModelsTable } from '../../../db/types/models.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand } from '../../../platform/writes/command.js';
import { modelsRepository as repo } from './repository.js';
import {
  contractOf,
  contractSha256,
  inputShapeOf,
  labelsOf,
  liveRecords,
  inputQuantizationOf,
  outputQuantizationOf,
  photoSet,
  testVectorsOf,
  thresholdsOf,
} from './stored.js';

const TOPIC = 'scanner_models';
const COLLECTION = MODEL_TEXTS.audit.collection;

/** The share bucket of an install for a stage's pilot, in [0, 100): fixed by its id, so the same phones stay in. */
export function pilotBucket(installId: string, stage: ModelStage): number {
  return (crypto.createHash('sha256').update(`model-pilot:${stage}:${installId}`).digest().readUInt32BE(0) / 2 ** 32) * 100;
}

/**
 * The live channel as a stack of model ids, oldest first: a publish puts a model on top, a
 * rollback takes the top one off; so rolling back twice goes two models back, never forward again.
 */
function liveStack(historyNewestFirst: ReadonlyArray<{ action: string; modelId: string | null }>): string[] {
  const stack: string[] = [];
  for (const h of [...historyNewestFirst].reverse()) {
    if (h.action === 'rollback') stack.pop();
    else if (h.modelId) stack.push(h.modelId);
  }
  return stack;
}

/**
 * What is published: the live and pilot channels of each stage, their checks, rollback, and
 * which model an install of the farmer app gets.
 */
export function createModelPublishing(ctx: AppContext) {
  async function modelOr404(id: string) {
    const row = await repo.find(ctx.db, id);
    if (!row) fail('NOT_FOUND');
    return row;
  }

  /** What stops a model from being published: labels without a live record, no evaluation on the current test split. */
  async function publishChecks(row: ScannerModelsTable): Promise<string[]> {
    const checks: string[] = [];
    const labels = labelsOf(row);
    const live = new Set((await liveRecords(ctx)).map((r) => r.id));
    const unmapped = labels.filter((l) => (row.stage === 'plant' ? !l.verdict : !l.recordId || !live.has(l.recordId))).map((l) => l.label);
    if (unmapped.length > 0) checks.push(MODEL_TEXTS.refused.unmappedLabels(unmapped));
    const set = await photoSet(ctx, 'test', TRAINING_SET.defaultSeed, row.stage as ModelStage);
    if (!(await repo.doneOnPhotoSet(ctx.db, row.id, set.sha256, contractSha256(row)))) checks.push(MODEL_TEXTS.refused.noEvaluation);
    return checks;
  }

  /** The models an install may download now (publishedFile). */
  async function mayDownload(installId: string): Promise<Set<string>> {
    const current = await repo.current(ctx.db);
    const ids = new Set<string>();
    for (const stage of ['disease', 'plant'] as const) {
      const live = current.find((c) => c.stage === stage && c.channel === 'live' && c.modelId);
      const pilot = current.find((c) => c.stage === stage && c.channel === 'pilot' && c.modelId);
      if (live) ids.add(live.modelId!);
      if (pilot && pilotBucket(installId, stage) < Number(pilot.share)) ids.add(pilot.modelId!);
      // The model a rollback would bring back: one rolled back from is not offered again.
      const stack = liveStack(await repo.channelHistory(ctx.db, stage, 'live', 100_000));
      if (stack.length >= 2) ids.add(stack[stack.length - 2]!);
    }
    return ids;
  }

  return {
    /**
     * Puts a model on a channel. Refused (409 naming the checks) when a label means no live
     * record, or a disease classifier has no finished evaluation on the current test split,
     * unless a written reason overrides, which is audited with the publish.
     */
    async publish(
      id: string,
      input: {
        channel: ModelChannel;
        share?: number | undefined;
        note: string;
        overrideReason?: string | undefined;
        thresholds?: Thresholds | undefined;
      },
      actor: Actor,
    ): Promise<void> {
      const row = await modelOr404(id);
      const reason = input.overrideReason?.trim() ?? '';
      if (input.overrideReason !== undefined && reason.length < MODEL_LIMITS.minReasonLength)
        invalid({ overrideReason: MODEL_TEXTS.reasonNeeded });
      const checks = await publishChecks(row);
      if (checks.length > 0 && !reason) fail('CONFLICT', checks.join(' '), undefined, { checks });
      const share = input.channel === 'live' ? 100 : (input.share ?? 10);
      await runCommand(ctx, actor, async (trx, cmd) => {
        const [live] = await repo.channelHistory(trx, row.stage, 'live', 1);
        const [current] = await repo.channelHistory(trx, row.stage, input.channel, 1);
        if (input.channel === 'live' && live?.modelId === id) fail('CONFLICT', MODEL_TEXTS.alreadyLive);
        if (input.channel === 'pilot' && live?.modelId === id) fail('CONFLICT', MODEL_TEXTS.pilotIsLive);
        const before = thresholdsOf(row);
        const thresholds = input.thresholds ?? before;
        if (
          JSON.stringify(thresholds) !== JSON.stringify(before) &&
          !(await repo.updateAt(trx, id, row.recordVersion, { thresholds: JSON.stringify(thresholds) }))
        )
          fail('VERSION_CONFLICT');
        await repo.appendPublication(
          trx,
          {
            id: newId(),
            stage: row.stage,
            channel: input.channel,
            action: 'publish',
            modelId: id,
            share,
            note: input.note,
            overrideReason: checks.length > 0 ? reason : null,
            createdBy: actor.fullname,
            createdAt: nowIso(),
          },
          current?.seq ?? 0,
        );
        // A model made live leaves the pilot it was in.
        if (input.channel === 'live') {
          const [pilot] = await repo.channelHistory(trx, row.stage, 'pilot', 1);
          if (pilot?.modelId === id) {
            await repo.appendPublication(
              trx,
              {
                id: newId(),
                stage: row.stage,
                channel: 'pilot',
                action: 'end-pilot',
                modelId: null,
                share: 0,
                note: input.note,
                overrideReason: null,
                createdBy: actor.fullname,
                createdAt: nowIso(),
              },
              pilot.seq,
            );
          }
        }
        await cmd.audit({
          action: 'UPDATE',
          collection: COLLECTION,
          documentId: id,
          documentName: row.version,
          description:
            checks.length > 0 ? MODEL_TEXTS.audit.override(row.version) : MODEL_TEXTS.audit.published(row.version, input.channel),
          changes: {
            before: { channel: input.channel, modelId: current?.modelId ?? null, share: current ? Number(current.share) : 0 },
            after: { channel: input.channel, modelId: id, version: row.version, share },
          },
          details: {
            note: input.note,
            thresholds: { before, after: thresholds },
            ...(checks.length > 0 ? { overrideReason: reason, failedChecks: checks } : {}),
          },
        });
        cmd.publish({ topic: TOPIC, id, op: 'update' });
      }).catch((err: unknown) => rethrowSeqRace(err));
    },

    /** Makes the live model before the current one live again. */
    async rollback(stage: ModelStage, note: string, actor: Actor): Promise<void> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const history = await repo.channelHistory(trx, stage, 'live', 100_000);
        const current = history[0];
        const stack = liveStack(history);
        const previousId = stack.length >= 2 ? stack[stack.length - 2]! : null;
        if (!current || !previousId) fail('CONFLICT', MODEL_TEXTS.rollbackNone);
        const previous = { modelId: previousId };
        const [from, to] = await Promise.all([repo.find(trx, current.modelId!), repo.find(trx, previousId)]);
        await repo.appendPublication(
          trx,
          {
            id: newId(),
            stage,
            channel: 'live',
            action: 'rollback',
            modelId: previousId,
            share: 100,
            note,
            overrideReason: null,
            createdBy: actor.fullname,
            createdAt: nowIso(),
          },
          current.seq,
        );
        const [pilot] = await repo.channelHistory(trx, stage, 'pilot', 1);
        if (pilot?.modelId === previousId) {
          await repo.appendPublication(
            trx,
            {
              id: newId(),
              stage,
              channel: 'pilot',
              action: 'end-pilot',
              modelId: null,
              share: 0,
              note,
              overrideReason: null,
              createdBy: actor.fullname,
              createdAt: nowIso(),
            },
            pilot.seq,
          );
        }
        await cmd.audit({
          action: 'UPDATE',
          collection: COLLECTION,
          documentId: previous.modelId,
          documentName: to?.version ?? null,
          description: MODEL_TEXTS.audit.rolledBack(from?.version ?? '?', to?.version ?? '?'),
          changes: {
            before: { channel: 'live', modelId: current.modelId, version: from?.version ?? null },
            after: { channel: 'live', modelId: previous.modelId, version: to?.version ?? null },
          },
          details: { note },
        });
        cmd.publish({ topic: TOPIC, id: previous.modelId, op: 'update' });
      }).catch((err: unknown) => rethrowSeqRace(err));
    },

    async endPilot(stage: ModelStage, actor: Actor): Promise<void> {
      await runCommand(ctx, actor, async (trx, cmd) => {
        const [pilot] = await repo.channelHistory(trx, stage, 'pilot', 1);
        if (!pilot?.modelId) fail('CONFLICT', MODEL_TEXTS.noPilot);
        const model = await repo.find(trx, pilot.modelId);
        await repo.appendPublication(
          trx,
          {
            id: newId(),
            stage,
            channel: 'pilot',
            action: 'end-pilot',
            modelId: null,
            share: 0,
            note: '',
            overrideReason: null,
            createdBy: actor.fullname,
            createdAt: nowIso(),
          },
          pilot.seq,
        );
        await cmd.audit({
          action: 'UPDATE',
          collection: COLLECTION,
          documentId: pilot.modelId,
          documentName: model?.version ?? null,
          description: MODEL_TEXTS.audit.pilotEnded(model?.version ?? '?'),
          changes: {
            before: { channel: 'pilot', modelId: pilot.modelId, share: Number(pilot.share) },
            after: { channel: 'pilot', modelId: null, share: 0 },
          },
        });
        cmd.publish({ topic: TOPIC, id: pilot.modelId, op: 'update' });
      }).catch((err: unknown) => rethrowSeqRace(err));
    },

    /** The model one install gets for each stage: the pilot's when the install falls in its share, else the live one. */
    async forInstall(installId: string): Promise<Record<ModelStage, PublicModel | null>> {
      const current = await repo.current(ctx.db);
      const out: Record<ModelStage, PublicModel | null> = { disease: null, plant: null };
      for (const stage of ['disease', 'plant'] as const) {
        const live = current.find((c) => c.stage === stage && c.channel === 'live' && c.modelId);
        const pilot = current.find((c) => c.stage === stage && c.channel === 'pilot' && c.modelId);
        const pick = pilot && pilotBucket(installId, stage) < Number(pilot.share) ? pilot : live;
        if (!pick) continue;
        const row = await repo.find(ctx.db, pick.modelId!);
        if (!row) continue;
        const labels = labelsOf(row);
        const names = new Map(
          (
            await repo.recordNames(
              ctx.db,
              labels.map((l) => l.recordId).filter((x): x is string => !!x),
            )
          ).map((r) => [r.id, r]),
        );
        out[stage] = {
          stage,
          channel: pick.channel as ModelChannel,
          version: row.version,
          sha256: row.sha256,
          size: Number(row.size),
          url: `/api/public/v1/models/${encodeURIComponent(row.version)}/file`,
          inputShape: inputShapeOf(row),
          inputType: row.inputType,
          inputQuantization: inputQuantizationOf(row),
          outputQuantization: outputQuantizationOf(row),
          contract: contractOf(row),
          thresholds: thresholdsOf(row),
          labels: labels.map((l, index) => {
            const r = l.recordId ? names.get(l.recordId) : undefined;
            return {
              index,
              label: l.label,
              recordId: l.recordId,
              verdict: l.verdict,
              name: r?.name ?? null,
              localName: r?.localName || null,
            };
          }),
          testVectors: {
            tolerance: MODEL_LIMITS.testVectorTolerance,
            vectors: testVectorsOf(row).map((v) => ({
              jpegBase64: v.jpegBase64,
              width: v.width,
              height: v.height,
              expected: v.top.map(([index, score]) => ({ index, label: labels[index]?.label ?? '', score })),
            })),
          },
          publishedAt: pick.createdAt,
        };
      }
      return out;
    },

    /**
     * A model file this install may download: for each stage, the live model, the pilot's when the
     * install falls in its share, and the model live before the current one (the app keeps it
     * as its offline fallback while the new one downloads). Any other version, even one that was
     * once on a channel, is a 404, as is one never published.
     */
    async publishedFile(version: string, installId: string) {
      const row = await repo.findByVersion(ctx.db, version);
      if (!row || !(await mayDownload(installId)).has(row.id)) fail('NOT_FOUND');
      return row;
    },
  };
}

/** Two publishes that read the same channel state: the second's seq is taken (unique), so it is told to look again. */
function rethrowSeqRace(err: unknown): never {
  const text = String((err as { message?: string })?.message ?? '');
  if (/unique|model_publications_seq/i.test(text)) fail('CONFLICT');
  throw err;
}
