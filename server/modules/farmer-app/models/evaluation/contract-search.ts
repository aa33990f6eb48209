import { setTimeout as sleep } from 'node:timers/promises';
import { TRAINING_SET } from '../../../../../common/catalog.js';
import { MODEL_LIMITS, MODEL_TEXTS, RESIZE_METHODS, type PixelScaling } from '../../../../../common/models.js';
import { sameContract, type ContractSearch, type PixelContract } from '../../../../../common/schemas/models.js';
import type { TfliteFacts } from '../../../../libraries/tflite/read-model.js';
import type { AppContext } from '../../../../platform/http/context.js';
import { readStored } from '../../../../platform/storage/stored-files.js';
import { photoReads } from '../../../content/photos/index.js';
import { keptValues } from '../../../../platform/cache/kept.js';
import { PHOTOS_STAMP, readStamps, recordsStamp, stampOfAll } from '../../../../platform/cache/stamps.js';
import { fail } from '../../../../platform/http/errors.js';
import { outputQuantizationFrom, photoSet } from '../stored.js';
import { Scorer } from './scorer.js';

/**
 * The pixel contract a model's TFLite Metadata states: its NormalizationOptions on 0–255 values
 * read as a scaling ((v − 0) / 255 is 0…1, (v − 127.5) / 127.5 is −1…1, (v − 0) / 1 is 0…255,
 * anything else mean and std per channel), stretched as Android's scaler does (metadata says
 * nothing of the resize). null when it states none, or the input is uint8 (it takes 0–255 as it is).
 */
export function metadataContract(facts: TfliteFacts): PixelContract | null {
  const n = facts.metadataNormalization;
  if (!n || facts.inputType === 'uint8') return null;
  const three = (v: number[]) => (v.length === 1 ? [v[0]!, v[0]!, v[0]!] : [v[0]!, v[1]!, v[2]!]) as [number, number, number];
  const [mean, std] = [three(n.mean), three(n.std)];
  const all = (v: number[], x: number) => v.every((a) => Math.abs(a - x) < 1e-3);
  const scaling: PixelScaling | null =
    all(mean, 0) && all(std, 255) ? '0-1' : all(mean, 127.5) && all(std, 127.5) ? '-1-1' : all(mean, 0) && all(std, 1) ? '0-255' : null;
  if (scaling) return { scaling, mean: null, std: null, resize: 'stretch' };
  const per = (v: [number, number, number]) => v.map((x) => x / 255) as [number, number, number];
  return { scaling: 'mean-std', mean: per(mean), std: per(std), resize: 'stretch' };
}

/**
 * How a photo becomes the input, found rather than guessed: a disease classifier scores a sample
 * of the held-out photos of the records its labels mean, under each scaling and resize, and the
 * contracts come back best first with their accuracy. Nothing in a .tflite without metadata
 * says which scaling it was trained with, and a wrong one is wrong on every phone.
 *
 * The sample is at most MODEL_LIMITS.contractSearchPerClass photos a record, from the test split
 * of the default seed (the photos an evaluation's test split holds out). The search ends at
 * MODEL_LIMITS.contractSearchMs with the contracts tried in full, and runs in a file reader's
 * slot, so Check files at once wait their turn. null: fewer than two photos to try on.
 */
export async function searchContract(
  ctx: AppContext,
  model: Uint8Array,
  facts: TfliteFacts,
  labelRecords: ReadonlyArray<string | null>,
): Promise<ContractSearch | null> {
  const wanted = new Set(labelRecords.filter((r): r is string => r !== null));
  if (wanted.size === 0) return null;
  const perRecord = new Map<string, string[]>();
  for (const [imageId, recordId] of (await photoSet(ctx, 'test', TRAINING_SET.defaultSeed, 'disease')).pairs) {
    if (!wanted.has(recordId)) continue;
    const ids = perRecord.get(recordId) ?? [];
    if (ids.length < MODEL_LIMITS.contractSearchPerClass) perRecord.set(recordId, [...ids, imageId]);
  }
  const sample = [...perRecord].flatMap(([recordId, ids]) => ids.map((id) => ({ id, recordId })));
  if (sample.length < 2) return null;
  const keys = new Map(
    (
      await photoReads.byIds(
        ctx.db,
        sample.map((p) => p.id),
      )
    ).map((p) => [p.id, p.originalKey]),
  );
  // Read again for each contract, one at a time: originals are megabytes each.
  const photos = sample.flatMap((p) => {
    const key = keys.get(p.id);
    return key ? [{ key, recordId: p.recordId }] : [];
  });
  if (photos.length < 2) return null;
  // A uint8 input takes the pixels as they are: only the resize is in question.
  // Tried in this order, the most common exports first; mean and std need their values, which a file without metadata lacks.
  const scalings: PixelScaling[] = facts.inputType === 'uint8' ? ['0-255'] : ['0-1', '-1-1', '0-255'];
  const standard: PixelContract[] = scalings.flatMap((scaling) =>
    RESIZE_METHODS.filter((r) => r !== 'letterbox').map((resize) => ({ scaling, mean: null, std: null, resize })),
  );
  // What the model's metadata states goes first: of equal accuracy, it is the one kept.
  const stated = metadataContract(facts);
  const contracts = stated ? [stated, ...standard.filter((c) => !sameContract(c, stated))] : standard;
  const input = { height: facts.inputShape[1], width: facts.inputShape[2], type: facts.inputType };
  const output = outputQuantizationFrom(facts);
  const deadline = performance.now() + MODEL_LIMITS.contractSearchMs;
  return ctx.files.slot('file', async () => {
    const trials: ContractSearch['trials'] = [];
    for (const contract of contracts) {
      if (performance.now() > deadline) break;
      const scorer = new Scorer({ model, contract, input, output, topK: 1 });
      try {
        try {
          await scorer.ready;
        } catch {
          // A contract the model cannot be loaded with is left out.
          continue;
        }
        let right = 0;
        let scored = 0;
        for (const photo of photos) {
          // Past the deadline the contract being tried is left out: its accuracy would rest on part of the sample.
          if (performance.now() > deadline) break;
          // A store that does not answer ends the search (a 503 naming it); a photo the model cannot score counts as wrong.
          const started = performance.now();
          const bytes = await readStored(ctx.storage, photo.key);
          const best = await scorer.score(bytes).then(
            (top) => top[0],
            () => undefined,
          );
          // It rests between photos, so the console's other requests keep their share of the cores.
          await sleep((performance.now() - started) * MODEL_LIMITS.contractSearchRest);
          if (best && labelRecords[best[0]] === photo.recordId) right += 1;
          scored += 1;
        }
        if (scored === photos.length) trials.push({ contract, accuracy: right / photos.length });
      } finally {
        await scorer.close();
      }
    }
    if (trials.length === 0) return null;
    // Best first; of equal accuracy, the order tried (0…1 and stretch first, the common export).
    const ranked = trials.map((t, i) => ({ t, i })).sort((a, b) => b.t.accuracy - a.t.accuracy || a.i - b.i);
    return { photos: photos.length, trials: ranked.map((r) => r.t) };
  });
}

/**
 * searchContract, kept while no photo and no disease is written: the upload after a Check file
 * of the same model and labels reads the trials Check file showed instead of scoring again.
 */
export async function keptContractSearch(
  ctx: AppContext,
  model: Uint8Array,
  facts: TfliteFacts,
  sha256: string,
  labelRecords: ReadonlyArray<string | null>,
): Promise<ContractSearch | null> {
  const stamp = stampOfAll(await readStamps(ctx.db), [PHOTOS_STAMP, recordsStamp('rice_local_diseases')]);
  return keptValues<ContractSearch | null>(ctx.db, 'models/contract-search', 8).get(`${sha256}:${labelRecords.join(',')}`, stamp, () =>
    searchContract(ctx, model, facts, labelRecords),
  );
}

/** Refuses (400) a contract that scored more than MODEL_LIMITS.contractWorseBy below the best tried, unless the upload accepts it. */
export function checkChosenContract(search: ContractSearch | null, chosen: PixelContract, acceptWorse: boolean): void {
  const best = search?.trials[0];
  const mine = search?.trials.find((t) => sameContract(t.contract, chosen));
  if (!best || !mine || acceptWorse || best.accuracy - mine.accuracy <= MODEL_LIMITS.contractWorseBy) return;
  const message = MODEL_TEXTS.worseContract(mine.accuracy, best.accuracy);
  fail('VALIDATION_FAILED', message, { contract: message }, { reason: 'worse_contract' });
}
