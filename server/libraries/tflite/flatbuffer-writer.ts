import { Builder } from 'flatbuffers';
import { SCALAR_SIZE, enumValue, tableOf, type FbsField, type FbsSchema, type FbsType, type ScalarName } from './fbs-schema.js';

/**
 * A table's contents by field name, as in the schema: numbers (or enum member names) for
 * scalars, strings, arrays (or a Uint8Array for [ubyte]) for vectors, objects for tables, and
 * { type, value } for a union (its `_type` field is filled in from `type`).
 */
export interface FlatbufferObject {
  [field: string]: FlatbufferValue;
}
export interface FlatbufferUnion {
  type: string;
  value: FlatbufferObject;
}
export type FlatbufferValue =
  number | bigint | boolean | string | null | undefined | Uint8Array | FlatbufferObject | FlatbufferUnion | FlatbufferValue[];

/**
 * Encodes `root` as a flatbuffer of the schema's root type with its file identifier. Fields are
 * placed by the slots the schema gives them; a field equal to its default is left out, as the
 * official builders do. The same input always gives the same bytes.
 */
export function encodeFlatbuffer(schema: FbsSchema, root: FlatbufferObject): Uint8Array {
  if (!schema.rootType) throw new Error('The schema has no root_type');
  const b = new Builder(1024);
  const offset = writeTable(b, schema, schema.rootType, root);
  b.finish(offset, schema.fileIdentifier ?? undefined);
  return b.asUint8Array().slice();
}

function writeTable(b: Builder, schema: FbsSchema, tableName: string, obj: FlatbufferObject): number {
  const table = tableOf(schema, tableName);
  if (table.struct) throw new Error(`Structs (${tableName}) are not supported`);
  const present: [FbsField, FlatbufferValue][] = [];
  for (const [name, value] of Object.entries(obj)) {
    const f = table.fields.get(name);
    if (!f) throw new Error(`The schema's table ${tableName} has no field ${name}`);
    if (f.deprecated) throw new Error(`${tableName}.${name} is deprecated`);
    if (f.type.kind === 'scalar' && f.type.enumName && schema.enums.get(f.type.enumName)?.union) {
      throw new Error(`Set ${tableName}.${name.replace(/_type$/, '')} as { type, value }, not ${name}`);
    }
    if (value !== undefined && value !== null) present.push([f, value]);
  }
  // Strings, vectors and tables are written before the table that points at them.
  const offsets = new Map<FbsField, number>();
  const unionTypes = new Map<number, number>();
  for (const [f, value] of present) {
    const where = `${tableName}.${f.name}`;
    if (f.type.kind === 'string') offsets.set(f, b.createString(expect(value, 'string', where)));
    else if (f.type.kind === 'vector') offsets.set(f, writeVector(b, schema, f, value, where));
    else if (f.type.kind === 'table') offsets.set(f, writeTable(b, schema, f.type.name, value as FlatbufferObject));
    else if (f.type.kind === 'union') {
      const union = value as FlatbufferUnion;
      unionTypes.set(f.slot - 1, enumValue(schema, f.type.name, union.type));
      offsets.set(f, writeTable(b, schema, union.type, union.value));
    }
  }
  b.startObject(table.slots);
  for (const [f, value] of present) {
    if (f.type.kind === 'scalar') addScalar(b, f, scalarValue(schema, f.type, value, `${tableName}.${f.name}`));
    else if (f.type.kind === 'struct') throw new Error(`Structs (${f.type.name}) are not supported`);
    else b.addFieldOffset(f.slot, offsets.get(f)!, 0);
  }
  for (const [slot, type] of unionTypes) b.addFieldInt8(slot, type, 0);
  return b.endObject();
}

function expect<T extends 'string' | 'number' | 'boolean'>(
  value: FlatbufferValue,
  type: T,
  where: string,
): T extends 'string' ? string : T extends 'number' ? number : boolean {
  if (typeof value !== type) throw new Error(`${where} must be a ${type}`);
  return value as never;
}

function scalarValue(schema: FbsSchema, type: FbsType & { kind: 'scalar' }, value: FlatbufferValue, where: string): number | bigint {
  if (typeof value === 'string' && type.enumName) return enumValue(schema, type.enumName, value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return value;
  return expect(value, 'number', where);
}

function addScalar(b: Builder, f: FbsField, value: number | bigint): void {
  if (f.type.kind !== 'scalar') return;
  const fallback = f.default === null ? null : Number(f.default);
  switch (f.type.scalar) {
    case 'float':
      b.addFieldFloat32(f.slot, Number(value), fallback);
      break;
    case 'double':
      b.addFieldFloat64(f.slot, Number(value), fallback);
      break;
    case 'long':
    case 'ulong':
      b.addFieldInt64(f.slot, BigInt(value), fallback === null ? null : BigInt(fallback));
      break;
    default: {
      const size = SCALAR_SIZE[f.type.scalar];
      const add = size === 1 ? b.addFieldInt8 : size === 2 ? b.addFieldInt16 : b.addFieldInt32;
      add.call(b, f.slot, Number(value), fallback);
    }
  }
}

function addElement(b: Builder, scalar: ScalarName, value: number | bigint): void {
  switch (scalar) {
    case 'float':
      b.addFloat32(Number(value));
      break;
    case 'double':
      b.addFloat64(Number(value));
      break;
    case 'long':
    case 'ulong':
      b.addInt64(BigInt(value));
      break;
    default: {
      const size = SCALAR_SIZE[scalar];
      if (size === 1) b.addInt8(Number(value));
      else if (size === 2) b.addInt16(Number(value));
      else b.addInt32(Number(value));
    }
  }
}

function writeVector(b: Builder, schema: FbsSchema, f: FbsField, value: FlatbufferValue, where: string): number {
  if (f.type.kind !== 'vector') throw new Error(`${where} is not a vector`);
  const of = f.type.of;
  const items = value instanceof Uint8Array ? value : Array.isArray(value) ? value : null;
  if (!items) throw new Error(`${where} must be an array`);
  if (of.kind === 'scalar') {
    const size = SCALAR_SIZE[of.scalar];
    const values = Array.from(items, (v, i) => scalarValue(schema, of, v, `${where}[${i}]`));
    b.startVector(size, values.length, f.align ?? size);
    for (let i = values.length - 1; i >= 0; i -= 1) addElement(b, of.scalar, values[i]!);
    return b.endVector();
  }
  const offsets = Array.from(items as FlatbufferValue[], (v, i) => {
    if (of.kind === 'string') return b.createString(expect(v, 'string', `${where}[${i}]`));
    if (of.kind === 'table') return writeTable(b, schema, of.name, v as FlatbufferObject);
    throw new Error(`Vectors of ${of.kind}s are not supported (${where})`);
  });
  b.startVector(4, offsets.length, 4);
  for (let i = offsets.length - 1; i >= 0; i -= 1) b.addOffset(offsets[i]!);
  return b.endVector();
}
