import crypto from 'node:crypto';
import { TRAINING_SET } from '../../../../common/catalog.js';
import { MODEL_TEXTS, modelVersionName, type EvaluationSplit, type ModelChannel, type ModelStage } from '../../../../common/models.js';
import {
  contractSearchSchema,
  pixelContractSchema,
  type EvaluationSummary,
  type ModelInspection,
  type ModelsOverview,
  type PixelContract,
  type ScannerModel,
  type Thresholds,
} from '../../../../common/schemas/models.js';
import type { ScannerModelsTable } from '../../../db/types/models.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { newId, nowIso } from '../../../platform/support/clock.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand } from '../../../platform/writes/command.js';
import { confirmMapping, suggestTarget, type LabelTarget } from './labels.js';
import { modelsRepository as repo } from './repository.js';
import { metricsOf } from './evaluation/report.js';
import { checkChosenContract, keptContractSearch, metadataContract } from './evaluation/contract-search.js';
import { checkUpload, type ModelParts } from './intake.js';
import {
  contractOf,
  contractSha256,
  inputShapeOf,
  labelsOf,
  liveRecords,
  parseJson,
  photosToScore,
  evaluationSummary,
  quantizationColumns,
  outputQuantizationFrom,
  outputQuantizationOf,
  thresholdsOf,
} from './stored.js';

const TOPIC = 'scanner_models';
const COLLECTION = MODEL_TEXTS.audit.collection;

export function createModelsService(ctx: AppContext, onQueued: () => void = () => undefined) {
  async function present(rows: ScannerModelsTable[]): Promise<ScannerModel[]> {
    const evaluations = await repo.evaluationsOf(
      ctx.db,
      rows.map((r) => r.id),
    );
    const current = await repo.current(ctx.db);
    const recordIds = [...new Set(rows.flatMap((r) => labelsOf(r).flatMap((l) => (l.recordId ? [l.recordId] : []))))];
    const names = new Map((await repo.recordNames(ctx.db, recordIds)).map((r) => [r.id, r]));
    const out: ScannerModel[] = [];
    for (const row of rows) {
      const evals: EvaluationSummary[] = [];
      for (const e of evaluations.filter((x) => x.modelId === row.id)) evals.push(await evaluationSummary(ctx, row.stage as ModelStage, e));
      out.push({
        id: row.id,
        stage: row.stage as ModelStage,
        version: row.version,
        number: row.number,
        sha256: row.sha256,
        size: Number(row.size),
        inputShape: inputShapeOf(row),
        inputType: row.inputType,
        outputQuantization: outputQuantizationOf(row),
        contractSearch: row.contractSearch ? contractSearchSchema.parse(parseJson(row.contractSearch)) : null,
        contract: contractOf(row),
        thresholds: thresholdsOf(row),
        labels: labelsOf(row).map((l, index) => {
          const rec = l.recordId ? names.get(l.recordId) : undefined;
          return {
            index,
            label: l.label,
            recordId: l.recordId,
            verdict: l.verdict,
            recordName: rec?.name ?? null,
            localName: rec?.localName || null,
            live: l.verdict !== null || (rec !== undefined && rec.isDeleted === 0),
          };
        }),
        note: row.note,
        recordVersion: Number(row.recordVersion),
        createdAt: row.createdAt,
        createdBy: row.createdBy,
        channels: current.filter((c) => c.modelId === row.id).map((c) => ({ channel: c.channel as ModelChannel, share: Number(c.share) })),
        evaluations: evals,
      });
    }
    return out;
  }

  async function modelOr404(id: string) {
    const row = await repo.find(ctx.db, id);
    if (!row) fail('NOT_FOUND');
    return row;
  }

  return {
    present,

    async overview(): Promise<ModelsOverview> {
      const models = await present(await repo.list(ctx.db));
      const publications = (await repo.publications(ctx.db)).map((p) => ({
        id: p.id,
        stage: p.stage as ModelStage,
        channel: p.channel as ModelChannel,
        action: p.action as 'publish' | 'rollback' | 'end-pilot',
        version: p.version ?? null,
        share: Number(p.share),
        note: p.note,
        overrideReason: p.overrideReason,
        by: p.createdBy,
        at: p.createdAt,
      }));
      return { models, publications };
    },

    async detail(id: string): Promise<ScannerModel> {
      return (await present([await modelOr404(id)]))[0]!;
    },

    /** Reads a model file and suggests what its labels mean; stores nothing. */
    async inspect(parts: ModelParts): Promise<ModelInspection> {
      const { meta, model, facts, labels, from } = await checkUpload(ctx.files, parts, 'inspect');
      const records = await liveRecords(ctx);
      const suggested = labels.map((label, index) => {
        const s = suggestTarget(meta.stage, label, records);
        return { index, label, recordId: s.target.recordId, verdict: s.target.verdict, matchedBy: s.matchedBy };
      });
      const bytes = new Uint8Array(model.buffer, model.byteOffset, model.byteLength);
      const sha256 = crypto.createHash('sha256').update(model).digest('hex');
      const labelRecords = suggested.map((l) => l.recordId);
      const contractSearch = meta.stage === 'disease' ? await keptContractSearch(ctx, bytes, facts, sha256, labelRecords) : null;
      return {
        contractSearch,
        metadataContract: metadataContract(facts),
        inputShape: facts.inputShape,
        inputType: facts.inputType,
        outputQuantization: outputQuantizationFrom(facts),
        outputSize: facts.outputSize,
        operators: facts.operatorCodes,
        sha256,
        size: model.length,
        labelsFrom: from,
        labels: suggested,
        records,
      };
    },

    /** Checks a model file, its labels and what they mean, then stores it; nothing is kept when any check fails. */
    async upload(parts: ModelParts, actor: Actor): Promise<ScannerModel> {
      const { meta, model, facts, labels } = await checkUpload(ctx.files, parts, 'upload');
      const mapping = confirmMapping(meta.stage, labels, meta.mapping ?? [], await liveRecords(ctx));
      const sha256 = crypto.createHash('sha256').update(model).digest('hex');
      const bytes = new Uint8Array(model.buffer, model.byteOffset, model.byteLength);
      const records = mapping.map((l) => l.recordId);
      const contractSearch = meta.stage === 'disease' ? await keptContractSearch(ctx, bytes, facts, sha256, records) : null;
      checkChosenContract(contractSearch, meta.contract, meta.acceptWorseContract);
      const id = newId();
      const key = `models/${meta.stage}/${id}.tflite`;
      // A plain copy for storage: the upload's bytes are shared memory, which not every store's client takes.
      await ctx.storage.put(key, Buffer.from(model));
      try {
        // Two uploads at once may both take the next number: the second tries the one after.
        const row = await withRetries(() =>
          runCommand(ctx, actor, async (trx, cmd) => {
            const number = await repo.nextNumber(trx, meta.stage);
            const row: ScannerModelsTable = {
              id,
              stage: meta.stage,
              number,
              version: modelVersionName(meta.stage, number),
              fileKey: key,
              sha256,
              size: model.length,
              inputShape: JSON.stringify(facts.inputShape),
              inputType: facts.inputType,
              ...quantizationColumns(facts),
              testVectors: null,
              contractSearch: contractSearch ? JSON.stringify(contractSearch) : null,
              contract: JSON.stringify(meta.contract),
              thresholds: JSON.stringify(meta.thresholds),
              labels: JSON.stringify(mapping),
              note: meta.note,
              recordVersion: 1,
              createdBy: actor.fullname,
              createdAt: nowIso(),
            };
            await repo.insert(trx, row);
            await cmd.audit({
              action: 'CREATE',
              collection: COLLECTION,
              documentId: id,
              documentName: row.version,
              description: MODEL_TEXTS.audit.uploaded(row.version),
              changes: {
                before: null,
                after: {
                  version: row.version,
                  stage: row.stage,
                  sha256,
                  size: row.size,
                  inputShape: facts.inputShape,
                  contract: meta.contract,
                  thresholds: meta.thresholds,
                  labels: mapping,
                  note: meta.note,
                },
              },
            });
            cmd.publish({ topic: TOPIC, id, op: 'create' });
            return row;
          }),
        );
        return (await present([row]))[0]!;
      } catch (err) {
        await ctx.storage.delete(key).catch(() => undefined);
        throw err;
      }
    },

    async updateMapping(id: string, version: number, given: LabelTarget[], actor: Actor): Promise<ScannerModel> {
      const row = await modelOr404(id);
      const before = labelsOf(row);
      const mapping = confirmMapping(
        row.stage as ModelStage,
        before.map((l) => l.label),
        given,
        await liveRecords(ctx),
      );
      await runCommand(ctx, actor, async (trx, cmd) => {
        if (!(await repo.updateAt(trx, id, version, { labels: JSON.stringify(mapping) }))) fail('VERSION_CONFLICT');
        // The lists' figures follow the mapping, as the reports (computed from the predictions) do.
        const mapped = { ...row, labels: JSON.stringify(mapping) };
        for (const e of await repo.doneOf(trx, id)) {
          const m = await metricsOf(trx, mapped, e.id);
          await repo.setMetrics(trx, e.id, m.accuracy, m.macroF1);
        }
        await cmd.audit({
          action: 'UPDATE',
          collection: COLLECTION,
          documentId: id,
          documentName: row.version,
          description: MODEL_TEXTS.audit.mapped(row.version),
          changes: { before: { labels: before }, after: { labels: mapping } },
        });
        cmd.publish({ topic: TOPIC, id, op: 'update' });
      });
      return this.detail(id);
    },

    async updateSettings(
      id: string,
      input: { version: number; contract: PixelContract; thresholds: Thresholds; note: string },
      actor: Actor,
    ): Promise<ScannerModel> {
      const row = await modelOr404(id);
      await runCommand(ctx, actor, async (trx, cmd) => {
        if (
          JSON.stringify(contractOf(row)) !== JSON.stringify(pixelContractSchema.parse(input.contract)) &&
          (await repo.onChannel(trx, id))
        )
          fail('CONFLICT', MODEL_TEXTS.contractLocked);
        if (
          !(await repo.updateAt(trx, id, input.version, {
            contract: JSON.stringify(input.contract),
            // Another contract prepares photos otherwise: its test vectors come with its next evaluation.
            ...(JSON.stringify(contractOf(row)) === JSON.stringify(pixelContractSchema.parse(input.contract)) ? {} : { testVectors: null }),
            thresholds: JSON.stringify(input.thresholds),
            note: input.note,
          }))
        )
          fail('VERSION_CONFLICT');
        await cmd.audit({
          action: 'UPDATE',
          collection: COLLECTION,
          documentId: id,
          documentName: row.version,
          description: MODEL_TEXTS.audit.settings(row.version),
          changes: {
            before: { contract: contractOf(row), thresholds: thresholdsOf(row), note: row.note },
            after: { contract: input.contract, thresholds: input.thresholds, note: input.note },
          },
        });
        cmd.publish({ topic: TOPIC, id, op: 'update' });
      });
      return this.detail(id);
    },

    /** Queues an evaluation of the model on a split of the current training set or on an evaluation set (the photos are fixed now). */
    async requestEvaluation(
      id: string,
      choice: { split: EvaluationSplit; seed: string; sameAs?: string | undefined; evaluationSetId?: string | undefined },
      actor: Actor,
    ): Promise<EvaluationSummary> {
      const row = await modelOr404(id);
      const earlier = choice.sameAs ? await repo.findEvaluation(ctx.db, choice.sameAs) : null;
      if (choice.sameAs && !earlier) fail('NOT_FOUND');
      const { split, seed, set, evaluationSet } = await photosToScore(ctx, row.stage as ModelStage, choice, earlier ?? null);
      const evaluationId = newId();
      const now = nowIso();
      const { train, validation, test } = TRAINING_SET.defaultRatios;
      await runCommand(ctx, actor, async (trx, cmd) => {
        if (await repo.activeEvaluation(trx, id)) fail('CONFLICT', MODEL_TEXTS.evaluationRunning);
        await repo.insertEvaluation(trx, {
          id: evaluationId,
          modelId: id,
          state: 'queued',
          split,
          seed,
          ratios: JSON.stringify({ train, validation, test }),
          photoSetSha256: set.sha256,
          contractSha256: contractSha256(row),
          photoIds: JSON.stringify(set.pairs),
          total: set.pairs.length,
          done: 0,
          cancelRequested: 0,
          claimedBy: null,
          heartbeatAt: null,
          accuracy: null,
          macroF1: null,
          error: null,
          createdBy: actor.fullname,
          createdAt: now,
          finishedAt: null,
          evaluationSetId: evaluationSet?.id ?? null,
          evaluationSetName: evaluationSet?.name ?? null,
        });
        await cmd.audit({
          action: 'UPDATE',
          collection: COLLECTION,
          documentId: id,
          documentName: row.version,
          description: MODEL_TEXTS.audit.evaluated(row.version),
          details: {
            evaluationId,
            split,
            seed,
            evaluationSet: evaluationSet?.name ?? null,
            photos: set.pairs.length,
            photoSetSha256: set.sha256,
            modelSha256: row.sha256,
          },
        });
        cmd.publish({ topic: TOPIC, id, op: 'update' });
      });
      onQueued();
      return (await this.detail(id)).evaluations.find((e) => e.id === evaluationId)!;
    },

    async cancelEvaluation(id: string, evaluationId: string, actor: Actor): Promise<EvaluationSummary> {
      const row = await modelOr404(id);
      const e = await repo.findEvaluation(ctx.db, evaluationId);
      if (!e || e.modelId !== id) fail('NOT_FOUND');
      await runCommand(ctx, actor, async (trx, cmd) => {
        if (!(await repo.requestCancel(trx, evaluationId))) fail('CONFLICT', MODEL_TEXTS.evaluationNotRunning);
        await repo.cancelQueued(trx, evaluationId, nowIso());
        await cmd.audit({
          action: 'UPDATE',
          collection: COLLECTION,
          documentId: id,
          documentName: row.version,
          description: MODEL_TEXTS.audit.cancelled(row.version),
          details: { evaluationId, done: e.done, total: e.total },
        });
        cmd.publish({ topic: TOPIC, id, op: 'update' });
      });
      return (await this.detail(id)).evaluations.find((x) => x.id === evaluationId)!;
    },

    async file(id: string) {
      return modelOr404(id);
    },
  };
}

/** Runs a write again when a unique key was taken by a write at the same moment (up to three tries). */
async function withRetries<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= 3 || !/unique|duplicate key/i.test(String((err as { message?: string })?.message ?? ''))) throw err;
    }
  }
}
