import { labelSlug } from '../../../common/catalog.js';
import type { FlatbufferObject } from './flatbuffer-writer.js';
import { writeTfliteModel, type ModelMetadataSpec, type OperatorSpec, type TensorSpec, type TfliteTensorType } from './write-model.js';
import { seededRandom } from '../../platform/support/seeded-random.js';

/** Small graph builder: tensors and operators by index, in order of creation. */
class Graph {
  readonly tensors: TensorSpec[] = [];
  readonly operators: OperatorSpec[] = [];
  tensor(name: string, shape: number[], type: TfliteTensorType = 'float32', data?: ArrayLike<number>): number {
    return this.tensors.push({ name, shape, type, data }) - 1;
  }
  /**
   * The scores as 8-bit integers, as TensorFlow's quantisation writes a softmax's output: scale
   * 1/256, zero point 0 (uint8) or −128 (int8). `quantization` overrides them (a broken file).
   */
  quantized(scores: number, type: 'uint8' | 'int8', quantization?: { scale: number[]; zeroPoint: number[] }): number {
    const shape = this.tensors[scores]!.shape;
    const q = quantization ?? { scale: [1 / 256], zeroPoint: [type === 'uint8' ? 0 : -128] };
    const out = this.tensors.push({ name: `scores/${type}`, shape, type, quantization: q }) - 1;
    this.op('QUANTIZE', [scores], [out]);
    return out;
  }
  op(op: string, inputs: number[], outputs: number[], table?: string, fields: FlatbufferObject = {}): void {
    this.operators.push({ op, inputs, outputs, options: table ? { table, fields } : undefined });
  }
  /**
   * A constant: float32, or as TensorFlow's float16 quantisation stores weights, float16 values
   * that a DEQUANTIZE turns into the float32 tensor the next op reads.
   */
  constant(name: string, shape: number[], values: ArrayLike<number>, weights: 'float32' | 'float16'): number {
    if (weights === 'float32') return this.tensor(name, shape, 'float32', values);
    const half = this.tensor(`${name}/float16`, shape, 'float16', values);
    const full = this.tensor(name, shape);
    this.op('DEQUANTIZE', [half], [full]);
    return full;
  }
  /** MEAN over height and width, FULLY_CONNECTED to the classes, SOFTMAX: the scores tensor. */
  classifierHead(
    features: number,
    channels: number,
    weights: ArrayLike<number>,
    bias: ArrayLike<number>,
    stored: 'float32' | 'float16' = 'float32',
  ): number {
    const classes = bias.length;
    const axes = this.tensor('mean/axes', [2], 'int32', [1, 2]);
    const pooled = this.tensor('mean', [1, channels]);
    this.op('MEAN', [features, axes], [pooled], 'ReducerOptions', { keep_dims: false });
    const w = this.constant('dense/weights', [classes, channels], weights, stored);
    const b = this.constant('dense/bias', [classes], bias, stored);
    const logits = this.tensor('logits', [1, classes]);
    this.op('FULLY_CONNECTED', [pooled, w, b], [logits], 'FullyConnectedOptions', { fused_activation_function: 'NONE' });
    const scores = this.tensor('scores', [1, classes]);
    this.op('SOFTMAX', [logits], [scores], 'SoftmaxOptions', { beta: 1 });
    return scores;
  }
  write(inputs: number[], outputs: number[], description: string, metadata?: ModelMetadataSpec): Promise<Uint8Array> {
    return writeTfliteModel({ tensors: this.tensors, operators: this.operators, inputs, outputs, description, metadata });
  }
}

const IMAGE: [number, number, number, number] = [1, 224, 224, 3];

export interface ColourClass {
  label: string;
  meanColour: [number, number, number];
}

/**
 * The demo scanner's temperature. Logits are T·(2c·p − |p|²) = T·(|c|² − |c − p|²), so the
 * scores are softmax(−T·|c − p|²) over the classes' colours p (0..1): the nearest colour wins.
 * With T = 100 and the demo classes (closest pair |p − q|² ≈ 0.034), a photo whose mean is a
 * class colour scores at least 0.94 for it, and one halfway between two close classes about
 * 0.5 for each.
 */
export const DEMO_TEMPERATURE = 100;

/**
 * Input 1×224×224×3 float32 (pixels already scaled to 0..1, or −1..1 with `scaling`), output the class scores: the
 * photo's mean colour c scored against each class colour p by softmax(T·(2c·p − |p|²)).
 * `labels` packs the class labels in the model's metadata.
 */
export function meanColourClassifier(options: {
  classes: ColourClass[];
  /** The pixels' scaling the model is built for: 0…1, or −1…1 (as Teachable Machine's exports take them). */
  scaling: '0-1' | '-1-1';
  temperature: number;
  labels?: boolean;
  name?: string;
  description?: string;
  /** Scores as 8-bit integers (Graph.quantized), as a quantised export gives them. */
  output?: 'uint8' | 'int8';
  outputQuantization?: { scale: number[]; zeroPoint: number[] };
  /** Weights kept as float16 and dequantised on load, as TensorFlow's float16 quantisation exports them. */
  weights?: 'float32' | 'float16';
}): Promise<Uint8Array> {
  const { classes, temperature: t } = options;
  const scaled = options.scaling === '-1-1' ? (v: number) => (v / 255 - 0.5) * 2 : (v: number) => v / 255;
  const prototypes = classes.map((c) => c.meanColour.map(scaled));
  const g = new Graph();
  const image = g.tensor('image', IMAGE);
  const scores = g.classifierHead(
    image,
    3,
    prototypes.flatMap((p) => p.map((v) => 2 * t * v)),
    prototypes.map((p) => -t * p.reduce((s, v) => s + v * v, 0)),
    options.weights,
  );
  const description = options.description ?? "Picks the class whose colour is nearest to the photo's mean colour.";
  const output = options.output ? g.quantized(scores, options.output, options.outputQuantization) : scores;
  return g.write([image], [output], description, {
    name: options.name ?? 'Mean-colour classifier',
    description,
    version: '1',
    imageInput: options.scaling === '-1-1' ? { mean: [127.5], std: [127.5] } : { mean: [0], std: [255] },
    labels: options.labels ? classes.map((c) => c.label) : undefined,
  });
}

/**
 * The demo disease scanner (demo-data/scanner/): the mean-colour classifier over the demo
 * diseases in the order given, labelled with their label slugs, labels packed in the model.
 */
export function demoDiseaseClassifier(diseases: { name: string; meanColour: [number, number, number] }[]): Promise<Uint8Array> {
  return meanColourClassifier({
    classes: diseases.map((d) => ({ label: labelSlug(d.name), meanColour: d.meanColour })),
    scaling: '0-1',
    temperature: DEMO_TEMPERATURE,
    labels: true,
    name: 'PalaYan demo disease scanner',
    description:
      "PalaYan demo disease scanner: picks the demo disease whose colour is nearest to the photo's mean " +
      'colour. Input: one RGB photo, 224×224, pixels scaled to 0..1.',
  });
}

/**
 * The demo plant check (demo-data/scanner/): the mean-colour classifier over two colours, the
 * training class "not a rice plant"'s and the demo diseases' average, labelled with the verdicts.
 */
export function demoPlantCheck(
  diseases: Array<{ meanColour: [number, number, number] }>,
  notRicePlant: { meanColour: [number, number, number] },
): Promise<Uint8Array> {
  const rice = [0, 1, 2].map((c) => diseases.reduce((s, d) => s + d.meanColour[c]!, 0) / diseases.length) as [number, number, number];
  return meanColourClassifier({
    classes: [
      { label: 'not-rice-plant', meanColour: notRicePlant.meanColour },
      { label: 'rice-plant', meanColour: rice },
    ],
    scaling: '0-1',
    temperature: DEMO_TEMPERATURE,
    labels: true,
    name: 'PalaYan demo plant check',
    description:
      "PalaYan demo plant check: says rice plant when the photo's mean colour is nearer the demo diseases' average colour " +
      'than the "not a rice plant" colour. Input: one RGB photo, 224×224, pixels scaled to 0..1.',
  });
}

interface ConvLayer {
  out: number;
  stride: number;
}
/** 224² → 112²×16 → 112²×48 → 56²×64, each a 3×3 SAME convolution with a fused RELU. */
const CONV_LAYERS: ConvLayer[] = [
  { out: 16, stride: 2 },
  { out: 48, stride: 1 },
  { out: 64, stride: 2 },
];

/**
 * Floating-point operations of one convBenchClassifier run, a multiply-add counted as two:
 * the convolutions (≈ 357.6 M at 224×224), the mean and the dense layer.
 */
export function convBenchFlops(classes: number): number {
  let [side, channels] = [IMAGE[1], IMAGE[3]];
  let flops = 0;
  for (const layer of CONV_LAYERS) {
    side = Math.ceil(side / layer.stride);
    flops += 2 * side * side * layer.out * 9 * channels;
    channels = layer.out;
  }
  return flops + side * side * channels + 2 * channels * classes;
}

/**
 * A convolutional classifier of about 360 MFLOPs at 224×224 (convBenchFlops) with weights from a
 * seeded generator, to time inference: its scores mean nothing.
 */
export function convBenchClassifier(options: {
  classes: number;
  labels?: string[];
  seed?: number;
  /** Scores as 8-bit integers (Graph.quantized). */
  output?: 'uint8';
}): Promise<Uint8Array> {
  const next = seededRandom(options.seed ?? 1);
  const uniform = (n: number, limit: number) => Array.from({ length: n }, () => (next() * 2 - 1) * limit);
  const g = new Graph();
  const image = g.tensor('image', IMAGE);
  let [x, side, channels] = [image, IMAGE[1], IMAGE[3]];
  for (const [i, layer] of CONV_LAYERS.entries()) {
    side = Math.ceil(side / layer.stride);
    const fanIn = 9 * channels;
    // He-uniform initialisation keeps the activations' scale through the RELUs.
    const filter = g.tensor(
      `conv${i + 1}/filter`,
      [layer.out, 3, 3, channels],
      'float32',
      uniform(layer.out * fanIn, Math.sqrt(6 / fanIn)),
    );
    const bias = g.tensor(`conv${i + 1}/bias`, [layer.out], 'float32', uniform(layer.out, 0.1));
    const y = g.tensor(`conv${i + 1}`, [1, side, side, layer.out]);
    g.op('CONV_2D', [x, filter, bias], [y], 'Conv2DOptions', {
      padding: 'SAME',
      stride_w: layer.stride,
      stride_h: layer.stride,
      fused_activation_function: 'RELU',
    });
    [x, channels] = [y, layer.out];
  }
  const scores = g.classifierHead(x, channels, uniform(options.classes * channels, Math.sqrt(6 / channels)), uniform(options.classes, 0.1));
  const description = 'Benchmark: a small convolutional network with random weights, to time inference.';
  const output = options.output ? g.quantized(scores, options.output) : scores;
  return g.write([image], [output], description, options.labels ? { name: 'Convolution benchmark', labels: options.labels } : undefined);
}

/** Refusal fixtures: well-formed models that a scanner must not take. */
export function wrongInputRankModel(): Promise<Uint8Array> {
  const g = new Graph();
  const image = g.tensor('image', [1, 224, 224]);
  return g.write([image], [g.classifierHead(image, 1, [1, -1], [0, 0])], 'Input of rank 3.');
}

export function twoInputModel(): Promise<Uint8Array> {
  const g = new Graph();
  const a = g.tensor('image_a', IMAGE);
  const b = g.tensor('image_b', IMAGE);
  const sum = g.tensor('sum', IMAGE);
  g.op('ADD', [a, b], [sum], 'AddOptions', { fused_activation_function: 'NONE' });
  return g.write([a, b], [g.classifierHead(sum, 3, [1, 0, 0, 0, 1, 0], [0, 0])], 'Two inputs.');
}

export function intInputModel(type: 'int32' | 'int8' = 'int32'): Promise<Uint8Array> {
  const g = new Graph();
  const image = g.tensor('image', IMAGE, type);
  const pixels = g.tensor('pixels', IMAGE);
  g.op('CAST', [image], [pixels]);
  return g.write([image], [g.classifierHead(pixels, 3, [1, 0, 0, 0, 1, 0], [0, 0])], `Input of ${type} numbers.`);
}
