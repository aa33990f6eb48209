import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProblem, Scorer, SCORER_LIMITS, ThreadLost } from '../../../server/modules/farmer-app/models/evaluation/scorer.js';
import { meanColourClassifier } from '../../../server/libraries/tflite/recipes.js';
import { writeTfliteModel } from '../../../server/libraries/tflite/write-model.js';
import { createFileReaders } from '../../../server/platform/parsing/file-readers.js';

const log = { warn: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
const readers = createFileReaders({ concurrency: 2, queue: 2, timeLimitMs: 10_000, memoryMb: 64 }, log);
afterAll(async () => {
  await readers.close();
});

const model = async () =>
  meanColourClassifier({
    classes: [
      { label: 'a', meanColour: [200, 50, 50] },
      { label: 'b', meanColour: [50, 200, 50] },
    ],
    scaling: '0-1',
    temperature: 100,
  });
const input = { height: 224, width: 224, type: 'float32' as const };

/** A small classifier carrying a 24 MB constant it never uses: loading it copies the file into the runtime's memory. */
const heavyModel = () =>
  writeTfliteModel({
    tensors: [
      { name: 'image', shape: [1, 224, 224, 3], type: 'float32' },
      { name: 'axes', shape: [2], type: 'int32', data: [1, 2] },
      { name: 'pooled', shape: [1, 3], type: 'float32' },
      { name: 'weights', shape: [2, 3], type: 'float32', data: [1, 0, 0, 0, 1, 0] },
      { name: 'bias', shape: [2], type: 'float32', data: [0, 0] },
      { name: 'logits', shape: [1, 2], type: 'float32' },
      { name: 'scores', shape: [1, 2], type: 'float32' },
      { name: 'ballast', shape: [6_000_000], type: 'float32', data: new Float32Array(6_000_000) },
    ],
    operators: [
      { op: 'MEAN', inputs: [0, 1], outputs: [2], options: { table: 'ReducerOptions', fields: { keep_dims: false } } },
      {
        op: 'FULLY_CONNECTED',
        inputs: [2, 3, 4],
        outputs: [5],
        options: { table: 'FullyConnectedOptions', fields: { fused_activation_function: 'NONE' } },
      },
      { op: 'SOFTMAX', inputs: [5], outputs: [6], options: { table: 'SoftmaxOptions', fields: { beta: 1 } } },
    ],
    inputs: [0],
    outputs: [6],
  });

describe("the model runtime's thread: a time limit on loading and on each photo, and a cap on its WebAssembly memory", () => {
  it('loads a model within the default limits', async () => {
    expect(await loadProblem(readers, await model(), input)).toBeNull();
  });

  // Writes and loads a 24 MB model twice: longer than the unit tests' default limit on a busy machine.
  it(
    'reports a model that does not load in time, and one that needs more WebAssembly memory than the cap',
    { timeout: 60_000 },
    async () => {
      expect(await loadProblem(readers, await model(), input, { ...SCORER_LIMITS, loadMs: 5 })).toBe('the model did not load within 5 ms');
      // Its file is larger than LiteRT's first 16.8 MB of memory: under a 20 MB cap it cannot grow to hold it.
      const bigger = await heavyModel();
      expect(await loadProblem(readers, bigger, input)).toBeNull();
      const capped = await loadProblem(readers, bigger, input, { ...SCORER_LIMITS, wasmMemoryMb: 20 });
      expect(capped).not.toBeNull();
    },
  );

  it('ends the thread when a photo is not scored in time: the evaluation is told it cannot go on', async () => {
    const scorer = new Scorer(
      { model: await model(), contract: { scaling: '0-1', mean: null, std: null, resize: 'stretch' }, input, topK: 1 },
      { ...SCORER_LIMITS, scoreMs: 1 },
    );
    try {
      await scorer.ready;
      // 12 megapixels: decoding and scaling it alone takes far longer than the 1 ms limit.
      const photo = await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#c83232' } })
        .jpeg()
        .toBuffer();
      const err = await scorer.score(photo).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ThreadLost);
      expect((err as Error).message).toBe('the model did not score a photo within 1 ms');
    } finally {
      await scorer.close();
    }
  });
});
