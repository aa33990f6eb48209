import { damaged, fileIdentifier, TfliteFileError } from './errors.js';
import { enumMember, tfliteSchema } from './fbs-schema.js';
import {
  FlatbufferBoundsError,
  FlatbufferBudgetError,
  FlatbufferReader,
  type FlatbufferTable,
  type FlatbufferVector,
} from './flatbuffer-reader.js';
import { PackedFileError, readPackedFile } from './packed-files.js';
import { bufferBytes, readTfliteMetadata } from './read-metadata.js';

export { TfliteFileError, type TfliteErrorCode } from './errors.js';

export interface TfliteFacts {
  inputShape: [1, number, number, 3];
  inputType: 'float32' | 'uint8';
  /**
   * A uint8 input's scale and zero point (what a pixel number q means to the model: scale × (q −
   * zeroPoint)); null for float32, or when the file gives none or one per channel.
   */
  inputQuantization: Quantization | null;
  /** The number of classes: the length of the output vector. */
  outputSize: number;
  outputType: 'float32' | 'uint8' | 'int8';
  /** A quantised output's one scale and zero point: a score is scale × (q − zeroPoint). Null for float32. */
  outputQuantization: Quantization | null;
  /** Builtin operator names in first-use order ('CONV_2D'…); a custom op is 'CUSTOM:<its code>'. */
  operatorCodes: string[];
  subgraphs: number;
  /** The TFLite Metadata's description, else the model's own (converters write 'MLIR Converted.'). */
  description: string | null;
  /** Class labels packed in the file (TENSOR_AXIS_LABELS), trimmed, empty lines dropped. */
  metadataLabels: string[] | null;
  metadataName: string | null;
  /** The image input's normalisation its TFLite Metadata states ((value − mean) / std on 0–255 values), or null. */
  metadataNormalization: { mean: number[]; std: number[] } | null;
}

export const MIN_IMAGE_SIDE = 16;
export const MAX_IMAGE_SIDE = 1024;
const MAX_LABELS_BYTES = 1024 * 1024;
const PIXEL_TYPES = ['float32', 'uint8'] as const;

const shapeText = (shape: number[]): string => (shape.length === 0 ? 'a single number' : shape.join('×'));

export interface Quantization {
  scale: number;
  zeroPoint: number;
}

interface TensorFacts {
  shape: number[];
  type: string;
  /** Its quantisation parameters as written: one scale and zero point per quantised channel. */
  scales: number[];
  zeroPoints: number[];
}

function tensorFacts(tensors: FlatbufferVector, index: number): TensorFacts {
  if (!(index >= 0 && index < tensors.length)) throw damaged(`its graph names tensor ${index}, which it does not have`);
  const tensor = tensors.table(index);
  const type = enumMember(tfliteSchema(), 'TensorType', tensor.number('type'));
  const quantization = tensor.table('quantization');
  return {
    shape: tensor.vector('shape')?.numbers() ?? [],
    type: type?.toLowerCase() ?? 'an unknown type',
    scales: quantization?.vector('scale')?.numbers() ?? [],
    zeroPoints: quantization?.vector('zero_point')?.numbers() ?? [],
  };
}

const SCORE_TYPES = ['float32', 'uint8', 'int8'] as const;
const isScoreType = (type: string): type is TfliteFacts['outputType'] => (SCORE_TYPES as readonly string[]).includes(type);

const isPixelType = (type: string): type is TfliteFacts['inputType'] => (PIXEL_TYPES as readonly string[]).includes(type);

function checkInput(main: FlatbufferTable, tensors: FlatbufferVector): Pick<TfliteFacts, 'inputShape' | 'inputType' | 'inputQuantization'> {
  const inputs = main.vector('inputs')?.numbers() ?? [];
  const wanted = 'The model must take one image of shape 1×H×W×3';
  if (inputs.length !== 1) throw new TfliteFileError('INPUT_NOT_IMAGE', `${wanted}; this one takes ${inputs.length} inputs.`);
  const { shape, type, scales, zeroPoints } = tensorFacts(tensors, inputs[0]!);
  const [batch, height, width, channels] = shape;
  if (shape.length !== 4 || batch !== 1 || channels !== 3)
    throw new TfliteFileError('INPUT_NOT_IMAGE', `${wanted}; this one takes ${shapeText(shape)}.`);
  if (!(height! >= MIN_IMAGE_SIDE && height! <= MAX_IMAGE_SIDE && width! >= MIN_IMAGE_SIDE && width! <= MAX_IMAGE_SIDE)) {
    throw new TfliteFileError(
      'INPUT_NOT_IMAGE',
      `The model's input image must be ${MIN_IMAGE_SIDE} to ${MAX_IMAGE_SIDE} pixels high and wide; this one takes ${shapeText(shape)}.`,
    );
  }
  // LiteRT.js, which evaluates models here, feeds no int8 tensors: TensorFlow's converter gives uint8 pixels on request.
  if (type === 'int8')
    throw new TfliteFileError(
      'INPUT_NOT_IMAGE',
      'The model takes its pixels as int8 numbers, which the console cannot feed it to check it. ' +
        'Export it with uint8 input (TensorFlow Lite converter: inference_input_type = tf.uint8), or with float32 input.',
    );
  if (!isPixelType(type))
    throw new TfliteFileError('INPUT_NOT_IMAGE', `The model must take image pixels as float32 or uint8 numbers; this one takes ${type}.`);
  const quantized = type === 'uint8' && scales.length === 1 && Number.isFinite(scales[0]) && scales[0]! > 0 && zeroPoints.length <= 1;
  const inputQuantization = quantized ? { scale: scales[0]!, zeroPoint: zeroPoints[0] ?? 0 } : null;
  return { inputShape: [1, height!, width!, 3], inputType: type, inputQuantization };
}

function checkOutput(
  main: FlatbufferTable,
  tensors: FlatbufferVector,
): Pick<TfliteFacts, 'outputSize' | 'outputType' | 'outputQuantization'> {
  const outputs = main.vector('outputs')?.numbers() ?? [];
  const wanted = 'The model must give one list of class scores (shape 1×N or N, with N at least 2)';
  if (outputs.length !== 1) throw new TfliteFileError('OUTPUT_NOT_VECTOR', `${wanted}; this one gives ${outputs.length} outputs.`);
  const { shape, type, scales, zeroPoints } = tensorFacts(tensors, outputs[0]!);
  const size = shape.length === 2 && shape[0] === 1 ? shape[1]! : shape.length === 1 ? shape[0]! : 0;
  if (!(size >= 2)) throw new TfliteFileError('OUTPUT_NOT_VECTOR', `${wanted}; this one gives ${shapeText(shape)}.`);
  if (!isScoreType(type))
    throw new TfliteFileError(
      'OUTPUT_NOT_VECTOR',
      `The model's class scores must be float32, uint8 or int8 numbers; this one gives ${type}.`,
    );
  if (type === 'float32') return { outputSize: size, outputType: type, outputQuantization: null };
  // A quantised score means scale × (q − zero point): without one pair of them it means nothing.
  if (scales.length === 0)
    throw new TfliteFileError(
      'OUTPUT_NOT_VECTOR',
      `The model's class scores are ${type} numbers without the scale and zero point that say what they mean.`,
    );
  if (scales.length !== 1 || zeroPoints.length > 1)
    throw new TfliteFileError(
      'OUTPUT_NOT_VECTOR',
      `The model's class scores are quantised per class (${scales.length} scales): the scanner reads one scale and zero point for all of them.`,
    );
  const scale = scales[0]!;
  const zeroPoint = zeroPoints[0] ?? 0;
  const [low, high] = type === 'uint8' ? [0, 255] : [-128, 127];
  if (!(Number.isFinite(scale) && scale > 0) || !(Number.isInteger(zeroPoint) && zeroPoint >= low && zeroPoint <= high))
    throw new TfliteFileError(
      'OUTPUT_NOT_VECTOR',
      `The model's class scores have a scale (${scale}) or zero point (${zeroPoint}) that no ${type} score can use.`,
    );
  return { outputSize: size, outputType: type, outputQuantization: { scale, zeroPoint } };
}

/** Every operator and tensor of the main graph points at things the file has. */
function checkGraph(
  main: FlatbufferTable,
  tensors: FlatbufferVector,
  opCodes: number,
  buffers: FlatbufferVector | null,
  file: Uint8Array,
): void {
  const operators = main.vector('operators');
  for (let i = 0; i < (operators?.length ?? 0); i += 1) {
    const op = operators!.table(i);
    if (op.number('opcode_index') >= opCodes) throw damaged(`operation ${i} is of a kind the file does not list`);
    const used = [...(op.vector('inputs')?.numbers() ?? []), ...(op.vector('outputs')?.numbers() ?? [])];
    if (used.some((t) => t !== -1 && !(t >= 0 && t < tensors.length))) throw damaged(`operation ${i} uses a tensor the file does not have`);
  }
  for (let i = 0; i < tensors.length; i += 1) bufferBytes(buffers, tensors.table(i).number('buffer'), file);
}

/** The runtime names inputs and outputs by the signatures: those of the main graph must fit it. */
function checkSignatures(model: FlatbufferTable, tensors: FlatbufferVector): void {
  const signatures = model.vector('signature_defs');
  for (let i = 0; i < (signatures?.length ?? 0); i += 1) {
    const signature = signatures!.table(i);
    signature.string('signature_key');
    if (signature.number('subgraph_index') !== 0) continue;
    for (const list of [signature.vector('inputs'), signature.vector('outputs')]) {
      for (let j = 0; j < (list?.length ?? 0); j += 1) {
        const map = list!.table(j);
        map.string('name');
        if (map.number('tensor_index') >= tensors.length) throw damaged(`signature ${i} names a tensor the file does not have`);
      }
    }
  }
}

function operatorNames(codes: FlatbufferVector | null): string[] {
  const names = new Set<string>();
  for (let i = 0; i < (codes?.length ?? 0); i += 1) {
    const code = codes!.table(i);
    // As the runtime does: the larger of the old one-byte code and the newer 32-bit one.
    const builtin = Math.max(code.number('deprecated_builtin_code'), code.number('builtin_code'));
    let name = enumMember(tfliteSchema(), 'BuiltinOperator', builtin) ?? `UNKNOWN_${builtin}`;
    if (name === 'CUSTOM') name = `CUSTOM:${code.string('custom_code') ?? ''}`;
    names.add(name);
  }
  return [...names];
}

function readGraph(bytes: Uint8Array): { facts: Omit<TfliteFacts, 'metadataLabels'>; labelsFile: string | null } {
  const model = new FlatbufferReader(bytes, tfliteSchema()).root('Model');
  const version = model.number('version');
  if (version !== 3)
    throw new TfliteFileError(
      'UNSUPPORTED',
      `This model is in TensorFlow Lite format version ${version}; only version 3 models can be used.`,
    );
  const subgraphs = model.vector('subgraphs');
  if (!subgraphs || subgraphs.length === 0) throw damaged('it holds no graph');
  const main = subgraphs.table(0);
  const tensors = main.vector('tensors');
  if (!tensors) throw damaged('its graph has no tensors');
  const buffers = model.vector('buffers');
  const codes = model.vector('operator_codes');
  checkGraph(main, tensors, codes?.length ?? 0, buffers, bytes);
  checkSignatures(model, tensors);
  const input = checkInput(main, tensors);
  const output = checkOutput(main, tensors);
  const meta = readTfliteMetadata(model, buffers, bytes);
  return {
    facts: {
      ...input,
      ...output,
      operatorCodes: operatorNames(codes),
      subgraphs: subgraphs.length,
      description: meta?.description || model.string('description'),
      metadataName: meta?.name ?? null,
      metadataNormalization: meta?.normalization ?? null,
    },
    labelsFile: meta?.labelsFile ?? null,
  };
}

/**
 * What the scanner needs to know of a .tflite file, checked without trusting it: a cut-short
 * or damaged file gives TfliteFileError (DAMAGED), never a read past its end. The model must
 * take one 1×H×W×3 image (float32 or uint8) and give one vector of N ≥ 2 class scores.
 */
export async function readTfliteModel(bytes: Uint8Array): Promise<TfliteFacts> {
  if (fileIdentifier(bytes) !== 'TFL3') throw new TfliteFileError('NOT_TFLITE', 'This file is not a TensorFlow Lite model (.tflite).');
  let graph: ReturnType<typeof readGraph>;
  try {
    graph = readGraph(bytes);
  } catch (err) {
    if (err instanceof FlatbufferBoundsError) throw damaged(`part of it (${err.where}) points outside the file`);
    if (err instanceof FlatbufferBudgetError) throw damaged(err.message);
    throw err;
  }
  if (!graph.labelsFile) return { ...graph.facts, metadataLabels: null };
  let data: Uint8Array;
  try {
    data = await readPackedFile(bytes, graph.labelsFile, MAX_LABELS_BYTES);
  } catch (err) {
    if (err instanceof PackedFileError) throw damaged(`the class labels packed in it (${graph.labelsFile}) cannot be read: ${err.message}`);
    throw err;
  }
  const labels = new TextDecoder()
    .decode(data)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return { ...graph.facts, metadataLabels: labels };
}
