import { describe, expect, it } from 'vitest';
import { enumMember, enumValue, fieldOf, metadataSchema, parseFbs, tfliteSchema } from '../../../server/libraries/tflite/fbs-schema.js';

/** A field's vtable offset as flatc's generated code names it (VT_… = 4 + 2·slot). */
const vt = (schema: ReturnType<typeof tfliteSchema>, table: string, field: string) => 4 + 2 * fieldOf(schema, table, field).slot;

describe('the TFLite model schema (schema.fbs)', () => {
  const s = tfliteSchema();

  it('is parsed once, with its namespace, identifier and root', () => {
    expect(tfliteSchema()).toBe(s);
    expect(s).toMatchObject({ namespace: 'tflite', fileIdentifier: 'TFL3', rootType: 'Model' });
  });

  // Expected values: the VT_* constants of flatc's generated C++ for the same schema
  // (google-ai-edge/LiteRT, tflite/converter/schema/schema_generated.h). Every one of its 315
  // vtable offsets and 439 enum values was compared when this parser was written.
  it.each([
    [
      'Model',
      {
        version: 4,
        operator_codes: 6,
        subgraphs: 8,
        description: 10,
        buffers: 12,
        metadata_buffer: 14,
        metadata: 16,
        signature_defs: 18,
        external_buffer_groups: 20,
        external_buffers: 22,
      },
    ],
    ['SubGraph', { tensors: 4, inputs: 6, outputs: 8, operators: 10, name: 12, debug_metadata_index: 14 }],
    [
      'Tensor',
      {
        shape: 4,
        type: 6,
        buffer: 8,
        name: 10,
        quantization: 12,
        is_variable: 14,
        sparsity: 16,
        shape_signature: 18,
        has_rank: 20,
        variant_tensors: 22,
        external_buffer: 24,
      },
    ],
    [
      'Operator',
      {
        opcode_index: 4,
        inputs: 6,
        outputs: 8,
        builtin_options_type: 10,
        builtin_options: 12,
        custom_options: 14,
        custom_options_format: 16,
        mutating_variable_inputs: 18,
        intermediates: 20,
        large_custom_options_offset: 22,
        large_custom_options_size: 24,
        builtin_options_2_type: 26,
        builtin_options_2: 28,
        debug_metadata_index: 30,
      },
    ],
    ['OperatorCode', { deprecated_builtin_code: 4, custom_code: 6, version: 8, builtin_code: 10 }],
    ['Buffer', { data: 4, offset: 6, size: 8 }],
    ['Metadata', { name: 4, buffer: 6 }],
    // deprecated_tag (slot 3) keeps its slot: subgraph_index is 12, not 10.
    ['SignatureDef', { inputs: 4, outputs: 6, signature_key: 8, subgraph_index: 12 }],
    // Two deprecated fields first (new_height, new_width).
    ['ResizeBilinearOptions', { align_corners: 8, half_pixel_centers: 10 }],
    ['QuantizationParameters', { min: 4, max: 6, scale: 8, zero_point: 10, details_type: 12, details: 14, quantized_dimension: 16 }],
    [
      'DimensionMetadata',
      { format: 4, dense_size: 6, array_segments_type: 8, array_segments: 10, array_indices_type: 12, array_indices: 14 },
    ],
    [
      'Conv2DOptions',
      {
        padding: 4,
        stride_w: 6,
        stride_h: 8,
        fused_activation_function: 10,
        dilation_w_factor: 12,
        dilation_h_factor: 14,
        quantized_bias_type: 16,
      },
    ],
    [
      'FullyConnectedOptions',
      { fused_activation_function: 4, weights_format: 6, keep_num_dims: 8, asymmetric_quantize_inputs: 10, quantized_bias_type: 12 },
    ],
    ['ReducerOptions', { keep_dims: 4 }],
    ['SoftmaxOptions', { beta: 4 }],
  ] as const)('%s fields sit in the slots flatc gives them', (table, expected) => {
    for (const [field, offset] of Object.entries(expected)) expect([field, vt(s, table, field)]).toEqual([field, offset]);
  });

  it('knows the enum values and union member indices', () => {
    expect(enumValue(s, 'BuiltinOperator', 'CONV_2D')).toBe(3);
    expect(enumValue(s, 'BuiltinOperator', 'FULLY_CONNECTED')).toBe(9);
    expect(enumValue(s, 'BuiltinOperator', 'SOFTMAX')).toBe(25);
    expect(enumValue(s, 'BuiltinOperator', 'MEAN')).toBe(40);
    expect(enumValue(s, 'BuiltinOperator', 'STABLEHLO_CASE')).toBe(209);
    expect(enumValue(s, 'TensorType', 'FLOAT32')).toBe(0);
    expect(enumValue(s, 'TensorType', 'UINT8')).toBe(3);
    // Implicit values count from 0.
    expect(enumValue(s, 'Padding', 'VALID')).toBe(1);
    // Union members count from 1 (NONE is 0), deprecated ones included.
    expect(enumValue(s, 'BuiltinOptions', 'NONE')).toBe(0);
    expect(enumValue(s, 'BuiltinOptions', 'Conv2DOptions')).toBe(1);
    expect(enumValue(s, 'BuiltinOptions', 'FullyConnectedOptions')).toBe(8);
    expect(enumValue(s, 'BuiltinOptions', 'SoftmaxOptions')).toBe(9);
    expect(enumValue(s, 'BuiltinOptions', 'ReducerOptions')).toBe(27);
    expect(enumValue(s, 'BuiltinOptions2', 'StableHLOCompositeOptions')).toBe(21);
    expect(enumValue(s, 'BuiltinOptions2', 'StablehloCaseOptions')).toBe(23);
    expect(enumMember(s, 'BuiltinOperator', 40)).toBe('MEAN');
    expect(enumMember(s, 'BuiltinOperator', 100_000)).toBeNull();
    expect(() => enumValue(s, 'BuiltinOperator', 'NO_SUCH_OP')).toThrow(/no member NO_SUCH_OP/);
  });

  it('gives field types and defaults', () => {
    expect(fieldOf(s, 'Tensor', 'shape').type).toEqual({ kind: 'vector', of: { kind: 'scalar', scalar: 'int' } });
    expect(fieldOf(s, 'Tensor', 'type').type).toEqual({ kind: 'scalar', scalar: 'byte', enumName: 'TensorType' });
    expect(fieldOf(s, 'Operator', 'builtin_options').type).toEqual({ kind: 'union', name: 'BuiltinOptions' });
    expect(fieldOf(s, 'Operator', 'builtin_options_type').type).toEqual({ kind: 'scalar', scalar: 'ubyte', enumName: 'BuiltinOptions' });
    expect(fieldOf(s, 'Buffer', 'data')).toMatchObject({ align: 16, type: { kind: 'vector', of: { kind: 'scalar', scalar: 'ubyte' } } });
    expect(fieldOf(s, 'Conv2DOptions', 'dilation_w_factor').default).toBe(1);
    expect(fieldOf(s, 'AddOptions', 'pot_scale_int16').default).toBe(true);
    expect(fieldOf(s, 'Operator', 'debug_metadata_index').default).toBe(-1);
    expect(fieldOf(s, 'FullyConnectedOptions', 'weights_format').default).toBe(0);
    expect(fieldOf(s, 'SignatureDef', 'deprecated_tag').deprecated).toBe(true);
  });
});

describe('the TFLite Metadata schema (metadata_schema.fbs)', () => {
  const m = metadataSchema();

  it('is parsed with its identifier and root', () => {
    expect(m).toMatchObject({ namespace: 'tflite', fileIdentifier: 'M001', rootType: 'ModelMetadata' });
  });

  // Counted by hand from the schema: fields in order, a union taking two slots.
  it.each([
    [
      'ModelMetadata',
      { name: 0, description: 1, version: 2, subgraph_metadata: 3, author: 4, license: 5, associated_files: 6, min_parser_version: 7 },
    ],
    [
      'SubGraphMetadata',
      { name: 0, description: 1, input_tensor_metadata: 2, output_tensor_metadata: 3, associated_files: 4, custom_metadata: 9 },
    ],
    ['TensorMetadata', { name: 0, description: 1, dimension_names: 2, content: 3, process_units: 4, stats: 5, associated_files: 6 }],
    ['Content', { content_properties_type: 0, content_properties: 1, range: 2 }],
    ['ProcessUnit', { options_type: 0, options: 1 }],
    ['AssociatedFile', { name: 0, description: 1, type: 2, locale: 3, version: 4 }],
  ] as const)('%s fields have their slots', (table, expected) => {
    for (const [field, slot] of Object.entries(expected)) expect([field, fieldOf(m, table, field).slot]).toEqual([field, slot]);
  });

  it('knows the enum values', () => {
    expect(enumValue(m, 'AssociatedFileType', 'TENSOR_AXIS_LABELS')).toBe(2);
    expect(enumValue(m, 'ContentProperties', 'ImageProperties')).toBe(2);
    expect(enumValue(m, 'ProcessUnitOptions', 'NormalizationOptions')).toBe(1);
    expect(enumValue(m, 'ColorSpaceType', 'RGB')).toBe(1);
  });
});

describe('parseFbs', () => {
  it('reads ids, comments, hex values, qualified names and includes', () => {
    const s = parseFbs(`
      include "other.fbs";
      attribute "priority";
      namespace my.game; /* a block
      comment */
      enum Colour : ubyte { Red = 0x2, Green, Blue = 10 (deprecated), }
      union Any { Monster, Weapon = 5 }
      table Weapon { damage: short = -3; }
      table Monster {
        hp: int (id: 3);
        colour: my.game.Colour = Green (id: 0);
        thing: Any (id: 2); // a union takes ids 1 and 2
        names: [string] (id: 4, priority: "high");
      }
      root_type my.game.Monster;
    `);
    expect(s.namespace).toBe('my.game');
    expect(s.rootType).toBe('Monster');
    expect(enumValue(s, 'Colour', 'Green')).toBe(3);
    expect(enumValue(s, 'Colour', 'Blue')).toBe(10);
    expect(enumValue(s, 'Any', 'Weapon')).toBe(5);
    expect(fieldOf(s, 'Monster', 'colour')).toMatchObject({ slot: 0, default: 3 });
    expect(fieldOf(s, 'Monster', 'thing_type').slot).toBe(1);
    expect(fieldOf(s, 'Monster', 'thing').slot).toBe(2);
    expect(fieldOf(s, 'Monster', 'hp').slot).toBe(3);
    expect(fieldOf(s, 'Monster', 'names').slot).toBe(4);
    expect(fieldOf(s, 'Weapon', 'damage').default).toBe(-3);
  });

  it('refuses what it does not understand, with the line', () => {
    expect(() => parseFbs('table T { a: Unknown; }')).toThrow(/line 1: unknown type Unknown/);
    expect(() => parseFbs('enum E : ubyte (bit_flags) { A, B }')).toThrow(/bit_flags/);
    expect(() => parseFbs('rpc_service S { }')).toThrow(/not supported/);
    expect(() => parseFbs('table T {\n a: int\n}')).toThrow(/line 3: expected ";"/);
    expect(() => parseFbs('table T { a: int (id: 0); b: int; }')).toThrow(/some fields an id/);
  });
});
