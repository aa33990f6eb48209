import { enumValue, metadataSchema, tfliteSchema } from './fbs-schema.js';
import { encodeFlatbuffer, type FlatbufferObject } from './flatbuffer-writer.js';
import { appendPackedFiles } from './packed-files.js';
import { METADATA_NAME } from './read-metadata.js';

/** A TensorType member of the schema, lower-case. */
export type TfliteTensorType = 'float32' | 'float16' | 'int32' | 'uint8' | 'int64' | 'bool' | 'int16' | 'int8';

export interface TensorSpec {
  name: string;
  shape: number[];
  type: TfliteTensorType;
  /** Constant contents (float32, float16 or int32 tensors), row-major; written to a buffer of their own. */
  data?: ArrayLike<number>;
  /** An 8-bit tensor's quantisation: value = scale × (q − zeroPoint), one pair per channel. */
  quantization?: { scale: number[]; zeroPoint: number[] };
}

export interface OperatorSpec {
  /** A BuiltinOperator member: 'CONV_2D', 'MEAN', 'FULLY_CONNECTED', 'SOFTMAX'… */
  op: string;
  /** Tensor indices (-1 for an optional input left out). */
  inputs: number[];
  outputs: number[];
  /** The op's options table (a BuiltinOptions or BuiltinOptions2 member) and its fields. */
  options?: { table: string; fields: FlatbufferObject };
}

export interface ModelMetadataSpec {
  name: string;
  description?: string;
  version?: string;
  author?: string;
  license?: string;
  /** Class names of the first output, packed as labels.txt (TENSOR_AXIS_LABELS). */
  labels?: string[];
  /** The first input is an RGB image normalised as (pixel − mean) / std. */
  imageInput?: { mean: number[]; std: number[] };
}

export interface ModelSpec {
  description?: string;
  tensors: TensorSpec[];
  operators: OperatorSpec[];
  inputs: number[];
  outputs: number[];
  metadata?: ModelMetadataSpec;
}

export const LABELS_FILE = 'labels.txt';
/** OperatorCode.deprecated_builtin_code holds codes up to this; larger ones only in builtin_code. */
const PLACEHOLDER_FOR_GREATER_OP_CODES = 127;

const f32 = new Float32Array(1);
const f32Bits = new Uint32Array(f32.buffer);

/** IEEE 754 half-precision bits of a finite value, rounded to nearest (even); past the range, infinity. */
export function float16Bits(value: number): number {
  f32[0] = value;
  const x = f32Bits[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exponent = ((x >>> 23) & 0xff) - 127 + 15;
  const mantissa = x & 0x7fffff;
  if (exponent >= 31) return sign | 0x7c00;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    const m = mantissa | 0x800000;
    const shift = 14 - exponent;
    const half = 1 << (shift - 1);
    const rest = m & ((1 << shift) - 1);
    let q = m >>> shift;
    if (rest > half || (rest === half && (q & 1) === 1)) q += 1;
    return sign | q;
  }
  let bits = (exponent << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (bits & 1) === 1)) bits += 1;
  return bits >= 0x7c00 ? sign | 0x7c00 : sign | bits;
}

function tensorBytes(t: TensorSpec): Uint8Array {
  const data = t.data!;
  const elements = t.shape.reduce((a, b) => a * b, 1);
  if (data.length !== elements) throw new Error(`Tensor ${t.name}: ${data.length} values for shape [${t.shape.join(', ')}]`);
  if (t.type !== 'float32' && t.type !== 'float16' && t.type !== 'int32')
    throw new Error(`Tensor ${t.name}: constant data must be float32, float16 or int32`);
  const width = t.type === 'float16' ? 2 : 4;
  const out = new Uint8Array(elements * width);
  const view = new DataView(out.buffer);
  for (let i = 0; i < elements; i += 1) {
    if (t.type === 'float32') view.setFloat32(i * 4, data[i]!, true);
    else if (t.type === 'float16') view.setUint16(i * 2, float16Bits(data[i]!), true);
    else view.setInt32(i * 4, data[i]!, true);
  }
  return out;
}

function metadataObject(spec: ModelSpec, meta: ModelMetadataSpec): FlatbufferObject {
  const input = spec.tensors[spec.inputs[0]!];
  const output = spec.tensors[spec.outputs[0]!];
  const inputMeta: FlatbufferObject = { name: input?.name };
  if (meta.imageInput) {
    inputMeta.content = { content_properties: { type: 'ImageProperties', value: { color_space: 'RGB' } } };
    inputMeta.process_units = [
      { options: { type: 'NormalizationOptions', value: { mean: meta.imageInput.mean, std: meta.imageInput.std } } },
    ];
  }
  const outputMeta: FlatbufferObject = {
    name: output?.name,
    content: { content_properties: { type: 'FeatureProperties', value: {} } },
    associated_files: meta.labels
      ? [{ name: LABELS_FILE, description: 'Labels for the classes the model tells apart.', type: 'TENSOR_AXIS_LABELS' }]
      : undefined,
  };
  return {
    name: meta.name,
    description: meta.description,
    version: meta.version,
    author: meta.author,
    license: meta.license,
    subgraph_metadata: [{ input_tensor_metadata: [inputMeta], output_tensor_metadata: [outputMeta] }],
    min_parser_version: '1.0.0',
  };
}

/**
 * Builds a .tflite file from a one-subgraph graph, every field placed by the official schema.
 * Buffer 0 is the empty sentinel; each constant tensor gets a buffer of its own. With metadata
 * labels, a TFLite Metadata flatbuffer goes into a buffer named TFLITE_METADATA and labels.txt is
 * packed in a ZIP after the model, as the official metadata writer does. Deterministic.
 */
export async function writeTfliteModel(spec: ModelSpec): Promise<Uint8Array> {
  const schema = tfliteSchema();
  for (const i of [...spec.inputs, ...spec.outputs]) if (!spec.tensors[i]) throw new Error(`The graph has no tensor ${i}`);
  const labels = spec.metadata?.labels;
  if (labels) {
    if (labels.some((l) => l.length === 0 || /[\r\n]/.test(l))) throw new Error('Each label must be one non-empty line');
    if (labels.length !== spec.tensors[spec.outputs[0] ?? -1]?.shape.at(-1)) throw new Error('One label per class of the first output');
  }
  const buffers: FlatbufferObject[] = [{}];
  const tensors = spec.tensors.map((t): FlatbufferObject => {
    let buffer = 0;
    if (t.data) buffer = buffers.push({ data: tensorBytes(t) }) - 1;
    const tensor: FlatbufferObject = { shape: t.shape, type: t.type.toUpperCase(), buffer, name: t.name };
    if (t.quantization) tensor.quantization = { scale: t.quantization.scale, zero_point: t.quantization.zeroPoint };
    return tensor;
  });
  const opNames: string[] = [];
  const operators = spec.operators.map((o): FlatbufferObject => {
    for (const i of [...o.inputs, ...o.outputs]) {
      if (i !== -1 && !(i >= 0 && i < spec.tensors.length)) throw new Error(`${o.op}: no tensor ${i}`);
    }
    if (!opNames.includes(o.op)) opNames.push(o.op);
    const op: FlatbufferObject = { opcode_index: opNames.indexOf(o.op), inputs: o.inputs, outputs: o.outputs };
    if (o.options) {
      const first = schema.enums.get('BuiltinOptions')!.values.has(o.options.table);
      op[first ? 'builtin_options' : 'builtin_options_2'] = { type: o.options.table, value: o.options.fields };
    }
    return op;
  });
  const operatorCodes = opNames.map((name): FlatbufferObject => {
    const code = enumValue(schema, 'BuiltinOperator', name);
    return { deprecated_builtin_code: Math.min(code, PLACEHOLDER_FOR_GREATER_OP_CODES), builtin_code: code, version: 1 };
  });
  const model: FlatbufferObject = {
    version: 3,
    operator_codes: operatorCodes,
    subgraphs: [{ tensors, inputs: spec.inputs, outputs: spec.outputs, operators, name: 'main' }],
    description: spec.description,
    buffers,
    signature_defs: [
      {
        inputs: spec.inputs.map((i) => ({ name: spec.tensors[i]!.name, tensor_index: i })),
        outputs: spec.outputs.map((i) => ({ name: spec.tensors[i]!.name, tensor_index: i })),
        signature_key: 'serving_default',
        subgraph_index: 0,
      },
    ],
  };
  const meta = spec.metadata;
  if (meta) {
    const data = encodeFlatbuffer(metadataSchema(), metadataObject(spec, meta));
    model.metadata = [{ name: METADATA_NAME, buffer: buffers.push({ data }) - 1 }];
  }
  const bytes = encodeFlatbuffer(schema, model);
  if (!labels) return bytes;
  return appendPackedFiles(bytes, [{ name: LABELS_FILE, data: new TextEncoder().encode(`${labels.join('\n')}\n`) }]);
}
