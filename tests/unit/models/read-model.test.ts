import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMAGENET_MEAN_STD } from '../../../common/models.js';
import { metadataContract } from '../../../server/modules/farmer-app/models/evaluation/contract-search.js';
import { metadataSchema, tfliteSchema } from '../../../server/libraries/tflite/fbs-schema.js';
import { encodeFlatbuffer, type FlatbufferObject } from '../../../server/libraries/tflite/flatbuffer-writer.js';
import { readTfliteModel, TfliteFileError, type TfliteErrorCode } from '../../../server/libraries/tflite/read-model.js';
import {
  convBenchClassifier,
  convBenchFlops,
  intInputModel,
  meanColourClassifier,
  twoInputModel,
  wrongInputRankModel,
} from '../../../server/libraries/tflite/recipes.js';
import { seededRandom } from '../../../server/platform/support/seeded-random.js';

const DEMO_MODEL = path.resolve(import.meta.dirname, '../../../demo-data/scanner/demo-disease-classifier.tflite');
const demoModel = () => new Uint8Array(fs.readFileSync(DEMO_MODEL));

const COLOURS = [
  { label: 'red-rot', meanColour: [200, 40, 40] as [number, number, number] },
  { label: 'green-mould', meanColour: [40, 200, 40] as [number, number, number] },
  { label: 'blue-spot', meanColour: [40, 40, 200] as [number, number, number] },
];

/** What readTfliteModel gives: its facts, or the code of its TfliteFileError (other errors throw). */
async function outcome(bytes: Uint8Array): Promise<TfliteErrorCode | 'OK'> {
  try {
    await readTfliteModel(bytes);
    return 'OK';
  } catch (err) {
    if (err instanceof TfliteFileError) return err.code;
    throw err;
  }
}

async function refusal(bytes: Uint8Array): Promise<TfliteFileError> {
  const err = await readTfliteModel(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TfliteFileError);
  return err as TfliteFileError;
}

/** A model built field by field: one 1×32×32×3 input (uint8, quantised as `image` says), one 1×4 output, no operators. */
function handMadeModel(model: FlatbufferObject, image?: { scale: number[]; zero_point: number[] }): Uint8Array {
  return encodeFlatbuffer(tfliteSchema(), {
    version: 3,
    subgraphs: [
      {
        tensors: [
          { shape: [1, 32, 32, 3], type: 'UINT8', name: 'image', ...(image ? { quantization: image } : {}) },
          { shape: [4], type: 'UINT8', name: 'scores', quantization: { scale: [0.00390625], zero_point: [0] } },
        ],
        inputs: [0],
        outputs: [1],
      },
    ],
    buffers: [{}],
    ...model,
  });
}

describe('readTfliteModel on the recipes', () => {
  it('reads the mean-colour classifier with its packed labels', async () => {
    const bytes = await meanColourClassifier({ classes: COLOURS, scaling: '0-1', temperature: 100, labels: true, name: 'Colours' });
    expect(await readTfliteModel(bytes)).toEqual({
      inputShape: [1, 224, 224, 3],
      inputType: 'float32',
      inputQuantization: null,
      outputSize: 3,
      outputType: 'float32',
      outputQuantization: null,
      operatorCodes: ['MEAN', 'FULLY_CONNECTED', 'SOFTMAX'],
      subgraphs: 1,
      description: "Picks the class whose colour is nearest to the photo's mean colour.",
      metadataLabels: ['red-rot', 'green-mould', 'blue-spot'],
      metadataName: 'Colours',
      metadataNormalization: { mean: [0], std: [255] },
    });
  });

  it("reads the input's normalisation the metadata states, and what contract it means", async () => {
    const facts = await readTfliteModel(await meanColourClassifier({ classes: COLOURS, scaling: '-1-1', temperature: 100 }));
    expect(facts.metadataNormalization).toEqual({ mean: [127.5], std: [127.5] });
    expect(metadataContract(facts)).toEqual({ scaling: '-1-1', mean: null, std: null, resize: 'stretch' });
    const imagenet = { ...facts, metadataNormalization: { mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375] } };
    const stated = metadataContract(imagenet)!;
    expect(stated.scaling).toBe('mean-std');
    stated.mean!.forEach((m, c) => expect(m).toBeCloseTo(IMAGENET_MEAN_STD.mean[c]!, 6));
    stated.std!.forEach((s, c) => expect(s).toBeCloseTo(IMAGENET_MEAN_STD.std[c]!, 6));
    expect(metadataContract({ ...facts, inputType: 'uint8' })).toBeNull();
    expect(metadataContract({ ...facts, metadataNormalization: null })).toBeNull();
  });

  it('gives null labels when the model packs none', async () => {
    const facts = await readTfliteModel(await meanColourClassifier({ classes: COLOURS, scaling: '0-1', temperature: 100 }));
    expect(facts).toMatchObject({ outputSize: 3, metadataLabels: null, metadataName: 'Mean-colour classifier' });
  });

  it('reads the convolution benchmark', async () => {
    const labels = Array.from({ length: 5 }, (_, i) => `class-${i}`);
    const facts = await readTfliteModel(await convBenchClassifier({ classes: 5, labels }));
    expect(facts).toMatchObject({
      inputShape: [1, 224, 224, 3],
      outputSize: 5,
      operatorCodes: ['CONV_2D', 'MEAN', 'FULLY_CONNECTED', 'SOFTMAX'],
      metadataLabels: labels,
    });
    expect(convBenchFlops(5)).toBeGreaterThanOrEqual(310e6);
    expect(convBenchFlops(5)).toBeLessThanOrEqual(400e6);
  });

  it('builds the same bytes from the same recipe', async () => {
    expect(await convBenchClassifier({ classes: 4 })).toEqual(await convBenchClassifier({ classes: 4 }));
    expect(await convBenchClassifier({ classes: 4, seed: 2 })).not.toEqual(await convBenchClassifier({ classes: 4 }));
  });

  it('reads the committed demo model', async () => {
    const facts = await readTfliteModel(demoModel());
    expect(facts).toMatchObject({ inputShape: [1, 224, 224, 3], outputSize: 12, metadataName: 'PalaYan demo disease scanner' });
    expect(facts.metadataLabels).toHaveLength(12);
    expect(facts.metadataLabels![0]).toBe('rice-blast');
  });

  it('reads uint8 models, [N] outputs and buffers kept past the flatbuffer (offset and size)', async () => {
    const metadata = encodeFlatbuffer(metadataSchema(), { name: 'Far away' });
    const withOffset = (offset: bigint) =>
      handMadeModel({ buffers: [{}, { offset, size: BigInt(metadata.length) }], metadata: [{ name: 'TFLITE_METADATA', buffer: 1 }] });
    // The offset's value does not change the flatbuffer's length: build once to learn it.
    const length = withOffset(1n << 40n).length;
    const bytes = new Uint8Array(length + metadata.length);
    bytes.set(withOffset(BigInt(length)));
    bytes.set(metadata, length);
    expect(await readTfliteModel(bytes)).toMatchObject({
      inputShape: [1, 32, 32, 3],
      inputType: 'uint8',
      inputQuantization: null,
      outputSize: 4,
      outputType: 'uint8',
      outputQuantization: { scale: 0.00390625, zeroPoint: 0 },
      metadataName: 'Far away',
      operatorCodes: [],
    });
    expect((await refusal(bytes.subarray(0, bytes.length - 1))).code).toBe('DAMAGED');
  });

  it("reads a uint8 input's one scale and zero point (what a pixel number means to the model); one per channel is left out", async () => {
    const read = (image: { scale: number[]; zero_point: number[] }) => readTfliteModel(handMadeModel({}, image));
    // Stored as float32: 1/255 comes back as float32 holds it.
    expect((await read({ scale: [1 / 255], zero_point: [0] })).inputQuantization).toEqual({ scale: Math.fround(1 / 255), zeroPoint: 0 });
    expect((await read({ scale: [0.0078125], zero_point: [128] })).inputQuantization).toEqual({ scale: 0.0078125, zeroPoint: 128 });
    expect((await read({ scale: [0.1, 0.2, 0.3], zero_point: [0, 0, 0] })).inputQuantization).toBeNull();
  });
});

describe('readTfliteModel refuses', () => {
  it('files that are no TFLite model', async () => {
    for (const bytes of [
      new Uint8Array(0),
      new Uint8Array([1, 2, 3]),
      Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
    ]) {
      const err = await refusal(bytes);
      expect(err.code).toBe('NOT_TFLITE');
      expect(err.message).toBe('This file is not a TensorFlow Lite model (.tflite).');
    }
  });

  it('a model cut short at any length', async () => {
    const bytes = demoModel();
    const seen = new Set<string>();
    for (let length = 0; length < bytes.length; length += 1) seen.add(await outcome(bytes.slice(0, length)));
    expect([...seen].sort()).toEqual(['DAMAGED', 'NOT_TFLITE']);
    expect((await refusal(bytes.slice(0, 600))).message).toMatch(/^The model file is cut short or damaged: /);
    // Cut inside the packed labels: the graph reads, the labels it promises do not.
    expect((await refusal(bytes.slice(0, bytes.length - 30))).message).toMatch(/labels packed in it \(labels\.txt\)/);
  });

  it('a big model cut short anywhere', async () => {
    const bytes = await convBenchClassifier({ classes: 3 });
    const next = seededRandom(7);
    for (let i = 0; i < 40; i += 1) {
      expect(['DAMAGED', 'NOT_TFLITE']).toContain(await outcome(bytes.slice(0, Math.floor(next() * bytes.length))));
    }
  });

  it('damaged bytes with a TfliteFileError or reads them, never another error', async () => {
    const original = demoModel();
    const next = seededRandom(2024);
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 3000; i += 1) {
      const bytes = original.slice();
      // Most flips land in the flatbuffer (offsets, lengths, vtables), some in the packed ZIP.
      const span = i % 4 === 0 ? bytes.length : 2048;
      for (let flips = 1 + Math.floor(next() * 4); flips > 0; flips -= 1) {
        bytes[Math.floor(next() * span)] ^= 1 << Math.floor(next() * 8);
      }
      const result = await outcome(bytes);
      outcomes.set(result, (outcomes.get(result) ?? 0) + 1);
    }
    expect(outcomes.get('DAMAGED')).toBeGreaterThan(100);
  });

  it('an input that is not one image', async () => {
    const rank = await refusal(await wrongInputRankModel());
    expect(rank).toMatchObject({
      code: 'INPUT_NOT_IMAGE',
      message: 'The model must take one image of shape 1×H×W×3; this one takes 1×224×224.',
    });
    expect(await refusal(await twoInputModel())).toMatchObject({
      code: 'INPUT_NOT_IMAGE',
      message: 'The model must take one image of shape 1×H×W×3; this one takes 2 inputs.',
    });
    expect(await refusal(await intInputModel())).toMatchObject({
      code: 'INPUT_NOT_IMAGE',
      message: 'The model must take image pixels as float32 or uint8 numbers; this one takes int32.',
    });
    // int8 pixels: what to export instead.
    expect(await refusal(await intInputModel('int8'))).toMatchObject({
      code: 'INPUT_NOT_IMAGE',
      message: expect.stringContaining('inference_input_type = tf.uint8'),
    });
    const tiny = handMadeModel({
      subgraphs: [
        {
          tensors: [
            { shape: [1, 8, 8, 3], name: 'image' },
            { shape: [1, 4], name: 'scores' },
          ],
          inputs: [0],
          outputs: [1],
        },
      ],
    });
    expect(await refusal(tiny)).toMatchObject({
      code: 'INPUT_NOT_IMAGE',
      message: expect.stringMatching(/16 to 1024 pixels high and wide; this one takes 1×8×8×3/),
    });
  });

  it('an output that is not a vector of two or more scores', async () => {
    const one = await meanColourClassifier({ classes: COLOURS.slice(0, 1), scaling: '0-1', temperature: 100 });
    expect(await refusal(one)).toMatchObject({
      code: 'OUTPUT_NOT_VECTOR',
      message: 'The model must give one list of class scores (shape 1×N or N, with N at least 2); this one gives 1×1.',
    });
    const grid = handMadeModel({
      subgraphs: [
        {
          tensors: [
            { shape: [1, 32, 32, 3], name: 'image' },
            { shape: [1, 7, 7, 4], name: 'grid' },
          ],
          inputs: [0],
          outputs: [1],
        },
      ],
    });
    expect((await refusal(grid)).code).toBe('OUTPUT_NOT_VECTOR');
    const none = handMadeModel({ subgraphs: [{ tensors: [{ shape: [1, 32, 32, 3], name: 'image' }], inputs: [0], outputs: [] }] });
    expect((await refusal(none)).message).toMatch(/this one gives 0 outputs/);
  });

  it('other schema versions, and graphs that name what they lack', async () => {
    expect(await refusal(handMadeModel({ version: 2 }))).toMatchObject({
      code: 'UNSUPPORTED',
      message: expect.stringMatching(/version 2; only version 3/),
    });
    expect((await refusal(handMadeModel({ subgraphs: [] }))).code).toBe('DAMAGED');
    const missingTensor = handMadeModel({
      subgraphs: [{ tensors: [{ shape: [1, 32, 32, 3], name: 'image' }], inputs: [0], outputs: [5] }],
    });
    expect(await refusal(missingTensor)).toMatchObject({
      code: 'DAMAGED',
      message: expect.stringMatching(/names tensor 5, which it does not have/),
    });
    const missingBuffer = handMadeModel({ buffers: [] });
    expect((await refusal(missingBuffer)).message).toMatch(/names buffer 0/);
  });
});
