import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadLiteRtRuntime } from '../../../server/modules/farmer-app/models/runtime/litert.js';
import { convBenchClassifier, convBenchFlops, DEMO_TEMPERATURE, meanColourClassifier } from '../../../server/libraries/tflite/recipes.js';
import { readTfliteModel } from '../../../server/libraries/tflite/read-model.js';
import { seededRandom } from '../../../server/platform/support/seeded-random.js';

// The models run in the real TFLite runtime for JavaScript (LiteRT.js, WebAssembly on the CPU).
const SCANNER = path.resolve(import.meta.dirname, '../../../demo-data/scanner');
const { classes } = JSON.parse(fs.readFileSync(path.join(SCANNER, 'classes.json'), 'utf8')) as {
  classes: { name: string; meanColour: number[] }[];
};
const prototypes = classes.map((c) => c.meanColour.map((v) => v / 255));
const SIDE = 224;
const PIXELS = SIDE * SIDE;

type LiteRt = Awaited<ReturnType<typeof loadLiteRtRuntime>>;
type Compiled = Awaited<ReturnType<LiteRt['loadAndCompile']>>;
let liteRt: LiteRt;

beforeAll(async () => {
  liteRt = await loadLiteRtRuntime();
}, 60_000);

async function run(model: Compiled, pixels: Float32Array): Promise<Float32Array> {
  const input = new liteRt.Tensor(pixels, [1, SIDE, SIDE, 3]);
  const [output] = await model.run([input]);
  const scores = output!.toTypedArray() as Float32Array;
  input.delete();
  output!.delete();
  return scores;
}

/** An image whose pixel at (x, y) has the colour `colourAt` gives (0..1 RGB). */
function image(colourAt: (x: number, y: number) => number[]): Float32Array {
  const pixels = new Float32Array(PIXELS * 3);
  for (let y = 0; y < SIDE; y += 1) {
    for (let x = 0; x < SIDE; x += 1) pixels.set(colourAt(x, y), (y * SIDE + x) * 3);
  }
  return pixels;
}

/** The scores the demo model should give, computed here: softmax(−T·|c − p|²) of the mean colour c. */
function expectedScores(pixels: Float32Array): number[] {
  const mean = [0, 1, 2].map((k) => {
    let s = 0;
    for (let i = k; i < pixels.length; i += 3) s += pixels[i]!;
    return s / PIXELS;
  });
  const logits = prototypes.map((p) => -DEMO_TEMPERATURE * p.reduce((s, v, k) => s + (mean[k]! - v) ** 2, 0));
  const top = Math.max(...logits);
  const e = logits.map((l) => Math.exp(l - top));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

const argmax = (xs: ArrayLike<number>) => Array.from(xs).reduce((best, v, i, all) => (v > all[best]! ? i : best), 0);

async function timePerRun(model: Compiled, pixels: Float32Array, runs: number): Promise<number> {
  await run(model, pixels);
  const start = performance.now();
  for (let i = 0; i < runs; i += 1) await run(model, pixels);
  return (performance.now() - start) / runs;
}

describe('LiteRT.js runs the models', () => {
  it('loads once', async () => {
    expect(await loadLiteRtRuntime()).toBe(liteRt);
    expect('importScripts' in globalThis).toBe(false);
  });

  it("the demo model picks the disease nearest to the photo's mean colour", async () => {
    const model = await liteRt.loadAndCompile(new Uint8Array(fs.readFileSync(path.join(SCANNER, 'demo-disease-classifier.tflite'))), {
      accelerator: 'wasm',
    });
    expect(model.getInputDetails()[0]).toMatchObject({ dtype: 'float32' });
    const next = seededRandom(11);
    const images: Float32Array[] = [
      ...prototypes.map((p) => image(() => p)),
      ...Array.from({ length: 8 }, () => {
        const c = [next(), next(), next()];
        return image(() => c);
      }),
      // Two halves of different colours, stripes, and noise: only the mean colour counts.
      ...Array.from({ length: 6 }, () => {
        const a = [next(), next(), next()];
        const b = [next(), next(), next()];
        return image((x) => (x < SIDE / 2 ? a : b));
      }),
      image((x, y) => ((x + y) % 2 === 0 ? prototypes[4]! : prototypes[7]!)),
      image(() => [next(), next(), next()]),
    ];
    for (const [i, pixels] of images.entries()) {
      const scores = await run(model, pixels);
      const expected = expectedScores(pixels);
      expect(scores).toHaveLength(classes.length);
      const [first, second] = [...expected].sort((a, b) => b - a);
      if (first! - second! > 0.05) expect(argmax(scores), `image ${i}`).toBe(argmax(expected));
      // The runtime sums 50,176 pixels in float32, so its mean colour is a little off; that
      // moves a score by up to a few thousandths, and may only swap two classes almost tied.
      for (const [k, v] of expected.entries()) expect(Math.abs(scores[k]! - v), `image ${i}, class ${k}`).toBeLessThan(0.01);
      if (i < prototypes.length) expect(scores[i]).toBeGreaterThan(0.9);
    }
    // Halfway between rice blast and sheath blight, the two closest demo colours.
    const halfway = prototypes[0]!.map((v, k) => (v + prototypes[3]![k]!) / 2);
    const split = await run(
      model,
      image(() => halfway),
    );
    expect(split[0]).toBeCloseTo(0.5, 1);
    expect(split[3]).toBeCloseTo(0.5, 1);
    console.log(
      `demo model (mean colour, 12 classes): ${(await timePerRun(model, images[0]!, 20)).toFixed(2)} ms per 224×224 image in LiteRT.js (Node, wasm)`,
    );
    model.delete();
  }, 60_000);

  it('runs a model whose weights are float16 (dequantised on load) as its float32 twin, within float16 rounding', async () => {
    const build = (weights: 'float32' | 'float16') =>
      meanColourClassifier({
        classes: classes.map((c) => ({ label: c.name, meanColour: c.meanColour as [number, number, number] })),
        scaling: '0-1',
        temperature: DEMO_TEMPERATURE,
        weights,
      });
    const half = await build('float16');
    expect((await readTfliteModel(half)).operatorCodes).toEqual(['MEAN', 'DEQUANTIZE', 'FULLY_CONNECTED', 'SOFTMAX']);
    const [full, halved] = await Promise.all(
      [build('float32'), Promise.resolve(half)].map((b) => b.then((m) => liteRt.loadAndCompile(m, { accelerator: 'wasm' }))),
    );
    const next = seededRandom(23);
    for (let i = 0; i < 12; i += 1) {
      const c = i < prototypes.length ? prototypes[i]! : [next(), next(), next()];
      const pixels = image(() => c);
      const [a, b] = [await run(full!, pixels), await run(halved!, pixels)];
      const [first, second] = [...a].sort((x, y) => y - x);
      if (first! - second! > 0.1) expect(argmax(b), `image ${i}`).toBe(argmax(a));
      for (let k = 0; k < a.length; k += 1) expect(Math.abs(a[k]! - b[k]!), `image ${i}, class ${k}`).toBeLessThan(0.05);
    }
    full!.delete();
    halved!.delete();
  }, 60_000);

  it('the convolution benchmark gives probabilities', async () => {
    const model = await liteRt.loadAndCompile(await convBenchClassifier({ classes: 10 }), { accelerator: 'wasm' });
    const next = seededRandom(5);
    const pixels = image(() => [next(), next(), next()]);
    const scores = await run(model, pixels);
    expect(scores).toHaveLength(10);
    expect(Array.from(scores).every((v) => v >= 0 && v <= 1)).toBe(true);
    expect(scores.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 4);
    const ms = await timePerRun(model, pixels, 5);
    console.log(
      `conv benchmark (${(convBenchFlops(10) / 1e6).toFixed(1)} MFLOPs): ${ms.toFixed(1)} ms per 224×224 image in LiteRT.js (Node, wasm)`,
    );
    model.delete();
  }, 120_000);
});
