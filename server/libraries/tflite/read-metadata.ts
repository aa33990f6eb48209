import { damaged, fileIdentifier } from './errors.js';
import { enumValue, metadataSchema } from './fbs-schema.js';
import { FlatbufferReader, type FlatbufferTable, type FlatbufferVector } from './flatbuffer-reader.js';

/** The Model.metadata entry whose buffer holds the TFLite Metadata flatbuffer. */
export const METADATA_NAME = 'TFLITE_METADATA';

export interface TfliteMetadataFacts {
  name: string | null;
  description: string | null;
  /** The packed file holding the class labels of the output (TENSOR_AXIS_LABELS), if named. */
  labelsFile: string | null;
  /** The image input's NormalizationOptions ((value − mean) / std, per channel or one for all), if stated. */
  normalization: { mean: number[]; std: number[] } | null;
}

/** The first input's NormalizationOptions, when its process units state one with as many means as stds (1 or 3). */
function normalizationOf(subgraph: FlatbufferTable | null): { mean: number[]; std: number[] } | null {
  const inputs = subgraph?.vector('input_tensor_metadata');
  const units = inputs && inputs.length > 0 ? inputs.table(0).vector('process_units') : null;
  for (let i = 0; i < (units?.length ?? 0); i += 1) {
    const options = units!.table(i).member('options', 'NormalizationOptions');
    if (!options) continue;
    const mean = options.vector('mean')?.numbers() ?? [];
    const std = options.vector('std')?.numbers() ?? [];
    const usable = (v: number[]) => (v.length === 1 || v.length === 3) && v.every(Number.isFinite);
    if (usable(mean) && usable(std) && std.every((s) => s > 0)) return { mean, std };
  }
  return null;
}

/**
 * A buffer's bytes: its data, or for models past 2 GB the slice of the file its offset and size
 * name (an offset of 0 or 1 means none). Bounds are checked like every other read.
 */
export function bufferBytes(buffers: FlatbufferVector | null, index: number, file: Uint8Array): Uint8Array {
  if (!buffers || !(index >= 0 && index < buffers.length)) throw damaged(`it names buffer ${index}, which it does not have`);
  const buffer = buffers.table(index);
  const data = buffer.vector('data');
  if (data && data.length > 0) return data.bytes();
  const offset = buffer.number('offset');
  const size = buffer.number('size');
  if (offset <= 1) return new Uint8Array(0);
  if (!Number.isSafeInteger(offset + size) || offset + size > file.length) throw damaged(`buffer ${index} lies past the end of the file`);
  return file.subarray(offset, offset + size);
}

function labelsFileIn(files: FlatbufferVector | null | undefined, labelsType: number): string | null {
  let found: string | null = null;
  for (let i = 0; i < (files?.length ?? 0); i += 1) {
    const file = files!.table(i);
    const name = file.string('name');
    if (file.number('type') !== labelsType || !name) continue;
    // Translations of the labels carry a locale; the untranslated file comes first.
    if (!file.string('locale')) return name;
    found ??= name;
  }
  return found;
}

/** The model's TFLite Metadata (the buffer named TFLITE_METADATA), or null when it has none. */
export function readTfliteMetadata(model: FlatbufferTable, buffers: FlatbufferVector | null, file: Uint8Array): TfliteMetadataFacts | null {
  const entries = model.vector('metadata');
  for (let i = 0; i < (entries?.length ?? 0); i += 1) {
    const entry = entries!.table(i);
    if (entry.string('name') !== METADATA_NAME) continue;
    const bytes = bufferBytes(buffers, entry.number('buffer'), file);
    if (fileIdentifier(bytes) !== 'M001') throw damaged('its TFLite Metadata is not readable');
    const schema = metadataSchema();
    const meta = new FlatbufferReader(bytes, schema).root('ModelMetadata');
    const labelsType = enumValue(schema, 'AssociatedFileType', 'TENSOR_AXIS_LABELS');
    const subgraphs = meta.vector('subgraph_metadata');
    const subgraph = subgraphs && subgraphs.length > 0 ? subgraphs.table(0) : null;
    const outputs = subgraph?.vector('output_tensor_metadata');
    const output = outputs && outputs.length > 0 ? outputs.table(0) : null;
    const labelsFile =
      labelsFileIn(output?.vector('associated_files'), labelsType) ??
      labelsFileIn(subgraph?.vector('associated_files'), labelsType) ??
      labelsFileIn(meta.vector('associated_files'), labelsType);
    return { name: meta.string('name'), description: meta.string('description'), labelsFile, normalization: normalizationOf(subgraph) };
  }
  return null;
}
