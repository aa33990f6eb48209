import {
  SCALAR_SIZE,
  enumValue,
  tableOf,
  type FbsField,
  type FbsSchema,
  type FbsTable,
  type FbsType,
  type ScalarName,
} from './fbs-schema.js';

/** A read that would leave the bytes: the file is cut short or its offsets are damaged. */
export class FlatbufferBoundsError extends Error {
  constructor(readonly where: string) {
    super(`${where} points outside the file`);
  }
}

/**
 * More reads than the bytes could hold without sharing: a file whose parts point at the same
 * parts over and over (16,000 operators naming one 16,000-long list) would cost the square of
 * its size. Reading stops instead.
 */
export class FlatbufferBudgetError extends Error {
  constructor() {
    super('the file refers to the same parts far more often than a model does');
  }
}

/** Reads allowed beyond one per byte: a header, a schema's worth of tables read more than once. */
const READS_BEYOND_SIZE = 1_000_000;

const utf8 = new TextDecoder('utf-8');

/**
 * Reads a flatbuffer without trusting it: every offset is followed only after checking that
 * what it points at lies inside the bytes, so a damaged file gives FlatbufferBoundsError and
 * never a read past the end. Fields are named as in the schema (.fbs), which gives their slots
 * and types.
 */
export class FlatbufferReader {
  private readonly view: DataView;
  /** Reads left: every scalar read and every string's bytes spend it, so a file of n bytes costs O(n). */
  private budget: number;
  constructor(
    readonly bytes: Uint8Array,
    readonly schema: FbsSchema,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.budget = bytes.length + READS_BEYOND_SIZE;
  }

  private spend(n: number): void {
    this.budget -= n;
    if (this.budget < 0) throw new FlatbufferBudgetError();
  }

  need(pos: number, size: number, where: string): void {
    if (!Number.isSafeInteger(pos) || !Number.isSafeInteger(size) || pos < 0 || size < 0 || pos + size > this.bytes.length) {
      throw new FlatbufferBoundsError(where);
    }
  }

  scalar(pos: number, scalar: ScalarName, where: string): number {
    this.spend(1);
    this.need(pos, SCALAR_SIZE[scalar], where);
    const v = this.view;
    switch (scalar) {
      case 'bool':
      case 'ubyte':
        return v.getUint8(pos);
      case 'byte':
        return v.getInt8(pos);
      case 'short':
        return v.getInt16(pos, true);
      case 'ushort':
        return v.getUint16(pos, true);
      case 'int':
        return v.getInt32(pos, true);
      case 'uint':
        return v.getUint32(pos, true);
      case 'long':
        return Number(v.getBigInt64(pos, true));
      case 'ulong':
        return Number(v.getBigUint64(pos, true));
      case 'float':
        return v.getFloat32(pos, true);
      case 'double':
        return v.getFloat64(pos, true);
    }
  }

  /** The target of the unsigned offset stored at `pos`, with `size` bytes there checked. */
  follow(pos: number, size: number, where: string): number {
    const target = pos + this.scalar(pos, 'uint', where);
    this.need(target, size, where);
    return target;
  }

  root(table: string): FlatbufferTable {
    return new FlatbufferTable(this, this.follow(0, 4, table), tableOf(this.schema, table), table);
  }

  string(pos: number, where: string): string {
    const start = this.follow(pos, 4, where);
    const length = this.scalar(start, 'uint', where);
    // The string's bytes and its terminating zero.
    this.need(start + 4, length + 1, where);
    this.spend(length >>> 2);
    return utf8.decode(this.bytes.subarray(start + 4, start + 4 + length));
  }
}

export class FlatbufferTable {
  private readonly vtable: number;
  private readonly vtableSize: number;
  private readonly objectSize: number;

  constructor(
    private readonly r: FlatbufferReader,
    private readonly pos: number,
    private readonly def: FbsTable,
    readonly where: string,
  ) {
    this.vtable = pos - r.scalar(pos, 'int', where);
    this.vtableSize = r.scalar(this.vtable, 'ushort', where);
    this.objectSize = r.scalar(this.vtable + 2, 'ushort', where);
    if (this.vtableSize < 4 || this.vtableSize % 2 !== 0 || this.objectSize < 4) throw new FlatbufferBoundsError(where);
    r.need(this.vtable, this.vtableSize, where);
    r.need(pos, this.objectSize, where);
  }

  private field(name: string): FbsField {
    const f = this.def.fields.get(name);
    if (!f) throw new Error(`The schema's table ${this.def.name} has no field ${name}`);
    return f;
  }

  /** Where the field's value is, or null when the table leaves it out (its default then). */
  private at(f: FbsField, size: number): number | null {
    const entry = 4 + 2 * f.slot;
    if (entry + 2 > this.vtableSize) return null;
    const offset = this.r.scalar(this.vtable + entry, 'ushort', `${this.where}.${f.name}`);
    if (offset === 0) return null;
    if (offset + size > this.objectSize) throw new FlatbufferBoundsError(`${this.where}.${f.name}`);
    return this.pos + offset;
  }

  /** A scalar or enum field (its schema default when absent); longs read as numbers. */
  number(name: string): number {
    const f = this.field(name);
    if (f.type.kind !== 'scalar') throw new Error(`${this.def.name}.${name} is not a number`);
    const pos = this.at(f, SCALAR_SIZE[f.type.scalar]);
    if (pos === null) return Number(f.default ?? 0);
    return this.r.scalar(pos, f.type.scalar, `${this.where}.${name}`);
  }

  string(name: string): string | null {
    const f = this.field(name);
    if (f.type.kind !== 'string') throw new Error(`${this.def.name}.${name} is not a string`);
    const pos = this.at(f, 4);
    return pos === null ? null : this.r.string(pos, `${this.where}.${name}`);
  }

  table(name: string): FlatbufferTable | null {
    const f = this.field(name);
    if (f.type.kind !== 'table') throw new Error(`${this.def.name}.${name} is not a table`);
    const pos = this.at(f, 4);
    if (pos === null) return null;
    const where = `${this.where}.${name}`;
    return new FlatbufferTable(this.r, this.r.follow(pos, 4, where), tableOf(this.r.schema, f.type.name), where);
  }

  /** A union field's value when it holds the table `member` (of the union's members), else null. */
  member(name: string, member: string): FlatbufferTable | null {
    const f = this.field(name);
    if (f.type.kind !== 'union') throw new Error(`${this.def.name}.${name} is not a union`);
    if (this.number(`${name}_type`) !== enumValue(this.r.schema, f.type.name, member)) return null;
    const pos = this.at(f, 4);
    if (pos === null) return null;
    const where = `${this.where}.${name}`;
    return new FlatbufferTable(this.r, this.r.follow(pos, 4, where), tableOf(this.r.schema, member), where);
  }

  vector(name: string): FlatbufferVector | null {
    const f = this.field(name);
    if (f.type.kind !== 'vector') throw new Error(`${this.def.name}.${name} is not a vector`);
    const pos = this.at(f, 4);
    return pos === null ? null : new FlatbufferVector(this.r, pos, f.type.of, `${this.where}.${name}`);
  }
}

export class FlatbufferVector {
  readonly length: number;
  private readonly start: number;
  private readonly size: number;

  constructor(
    private readonly r: FlatbufferReader,
    pos: number,
    private readonly of: FbsType,
    private readonly where: string,
  ) {
    if (of.kind === 'struct' || of.kind === 'union' || of.kind === 'vector') throw new Error(`Vectors of ${of.kind}s are not supported`);
    const at = r.follow(pos, 4, where);
    this.length = r.scalar(at, 'uint', where);
    this.size = of.kind === 'scalar' ? SCALAR_SIZE[of.scalar] : 4;
    this.start = at + 4;
    r.need(this.start, this.length * this.size, where);
  }

  private element(i: number): number {
    // Indices come from the file too: one past the end is damage, like an offset.
    if (!Number.isInteger(i) || i < 0 || i >= this.length) throw new FlatbufferBoundsError(`${this.where}[${i}]`);
    return this.start + i * this.size;
  }

  number(i: number): number {
    if (this.of.kind !== 'scalar') throw new Error(`${this.where} holds no numbers`);
    return this.r.scalar(this.element(i), this.of.scalar, `${this.where}[${i}]`);
  }

  numbers(): number[] {
    return Array.from({ length: this.length }, (_, i) => this.number(i));
  }

  string(i: number): string {
    if (this.of.kind !== 'string') throw new Error(`${this.where} holds no strings`);
    return this.r.string(this.element(i), `${this.where}[${i}]`);
  }

  table(i: number): FlatbufferTable {
    if (this.of.kind !== 'table') throw new Error(`${this.where} holds no tables`);
    const where = `${this.where}[${i}]`;
    return new FlatbufferTable(this.r, this.r.follow(this.element(i), 4, where), tableOf(this.r.schema, this.of.name), where);
  }

  /** A [ubyte] vector's bytes (a view, not a copy: nothing is read, so nothing is spent). */
  bytes(): Uint8Array {
    if (this.of.kind !== 'scalar' || SCALAR_SIZE[this.of.scalar] !== 1) throw new Error(`${this.where} holds no bytes`);
    return this.r.bytes.subarray(this.start, this.start + this.length);
  }
}
