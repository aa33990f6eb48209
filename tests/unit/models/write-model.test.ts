import { ByteBuffer } from 'flatbuffers';
import { describe, expect, it } from 'vitest';
import { convBenchClassifier } from '../../../server/libraries/tflite/recipes.js';
import { writeTfliteModel, type ModelSpec } from '../../../server/libraries/tflite/write-model.js';

// Read back with the flatbuffers library's own ByteBuffer and the vtable offsets of flatc's
// generated code (schema_generated.h), not with this module's reader.
const VT = { modelVersion: 4, modelSubgraphs: 8, modelBuffers: 12, bufferData: 4, subgraphOperators: 10, operatorOptions2Type: 26 };

function root(bytes: Uint8Array) {
  const bb = new ByteBuffer(bytes);
  return { bb, table: bb.readUint32(0) };
}
/** The table an offset field (or vector element) at `at` points to. */
const deref = (bb: ByteBuffer, at: number) => at + bb.readUint32(at);
const field = (bb: ByteBuffer, table: number, vt: number) => {
  const o = bb.__offset(table, vt);
  return o === 0 ? null : table + o;
};

const spec = (extra: Partial<ModelSpec> = {}): ModelSpec => ({
  tensors: [
    { name: 'image', shape: [1, 16, 16, 3], type: 'float32' },
    { name: 'scores', shape: [1, 2], type: 'float32' },
  ],
  operators: [],
  inputs: [0],
  outputs: [1],
  ...extra,
});

describe('writeTfliteModel', () => {
  it('writes a TFL3 version 3 model whose buffer 0 is the empty sentinel and whose data is 16-byte aligned', async () => {
    const bytes = await convBenchClassifier({ classes: 3 });
    const { bb, table } = root(bytes);
    expect(bb.__has_identifier('TFL3')).toBe(true);
    expect(bb.readUint32(field(bb, table, VT.modelVersion)!)).toBe(3);
    const buffers = deref(bb, field(bb, table, VT.modelBuffers)!);
    const count = bb.readUint32(buffers);
    expect(count).toBe(1 + 3 * 2 + 1 + 2); // sentinel, conv filters and biases, mean axes, dense weights and bias
    expect(field(bb, deref(bb, buffers + 4), VT.bufferData)).toBeNull();
    for (let i = 1; i < count; i += 1) {
      const data = deref(bb, field(bb, deref(bb, buffers + 4 + 4 * i), VT.bufferData)!);
      expect((data + 4) % 16).toBe(0);
    }
  });

  it('puts options of the second union in builtin_options_2', async () => {
    const bytes = await writeTfliteModel(
      spec({
        operators: [
          {
            op: 'STABLEHLO_COMPOSITE',
            inputs: [0],
            outputs: [1],
            options: { table: 'StableHLOCompositeOptions', fields: { name: 'odd', version: 2 } },
          },
        ],
      }),
    );
    const { bb, table } = root(bytes);
    const subgraph = deref(bb, deref(bb, field(bb, table, VT.modelSubgraphs)!) + 4);
    const operator = deref(bb, deref(bb, field(bb, subgraph, VT.subgraphOperators)!) + 4);
    expect(bb.readUint8(field(bb, operator, VT.operatorOptions2Type)!)).toBe(21);
  });

  it('refuses names the schema does not have, and labels that do not fit', async () => {
    const op = (fields: Record<string, number | string>) =>
      spec({ operators: [{ op: 'SOFTMAX', inputs: [0], outputs: [1], options: { table: 'SoftmaxOptions', fields } }] });
    await expect(writeTfliteModel(op({ beta: 1, gamma: 2 }))).rejects.toThrow(/SoftmaxOptions has no field gamma/);
    await expect(writeTfliteModel(spec({ operators: [{ op: 'TELEPORT', inputs: [0], outputs: [1] }] }))).rejects.toThrow(
      /BuiltinOperator has no member TELEPORT/,
    );
    await expect(
      writeTfliteModel(
        spec({
          operators: [
            { op: 'RESIZE_BILINEAR', inputs: [0], outputs: [1], options: { table: 'ResizeBilinearOptions', fields: { new_height: 3 } } },
          ],
        }),
      ),
    ).rejects.toThrow(/deprecated/);
    await expect(writeTfliteModel(spec({ operators: [{ op: 'ADD', inputs: [0, 7], outputs: [1] }] }))).rejects.toThrow(/no tensor 7/);
    await expect(writeTfliteModel(spec({ metadata: { name: 'x', labels: ['one', 'two', 'three'] } }))).rejects.toThrow(
      /One label per class/,
    );
    await expect(writeTfliteModel(spec({ metadata: { name: 'x', labels: ['one', 'two\nthree'] } }))).rejects.toThrow(/one non-empty line/);
  });
});
