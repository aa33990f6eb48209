import fs from 'node:fs';
import path from 'node:path';
import { Parser, tokenize, type RawField, type RawTable } from './fbs-syntax.js';

/**
 * A parser for the part of the FlatBuffers schema language (.fbs) that the TFLite model and
 * metadata schemas use, so that readers and writers find every field by its name in the
 * official schema instead of by a slot number copied by hand.
 */
export type ScalarName = 'bool' | 'byte' | 'ubyte' | 'short' | 'ushort' | 'int' | 'uint' | 'long' | 'ulong' | 'float' | 'double';
export type FbsType =
  | { kind: 'scalar'; scalar: ScalarName; enumName?: string }
  | { kind: 'string' }
  | { kind: 'vector'; of: FbsType }
  | { kind: 'table' | 'struct' | 'union'; name: string };

export interface FbsField {
  name: string;
  /** Index in the table's vtable: the field's vtable entry is at byte 4 + 2·slot. */
  slot: number;
  type: FbsType;
  default: number | boolean | null;
  deprecated: boolean;
  /** force_align of a vector field (bytes), else null. */
  align: number | null;
}
export interface FbsTable {
  name: string;
  struct: boolean;
  fields: Map<string, FbsField>;
  slots: number;
}
/** An enum, or a union as the enum of its type field (NONE = 0, then the members). */
export interface FbsEnum {
  name: string;
  scalar: ScalarName;
  union: boolean;
  values: Map<string, number>;
}
export interface FbsSchema {
  namespace: string | null;
  fileIdentifier: string | null;
  rootType: string | null;
  tables: Map<string, FbsTable>;
  enums: Map<string, FbsEnum>;
}

const SCALARS: Record<string, ScalarName> = {
  bool: 'bool',
  byte: 'byte',
  int8: 'byte',
  ubyte: 'ubyte',
  uint8: 'ubyte',
  short: 'short',
  int16: 'short',
  ushort: 'ushort',
  uint16: 'ushort',
  int: 'int',
  int32: 'int',
  uint: 'uint',
  uint32: 'uint',
  long: 'long',
  int64: 'long',
  ulong: 'ulong',
  uint64: 'ulong',
  float: 'float',
  float32: 'float',
  double: 'double',
  float64: 'double',
};
export const SCALAR_SIZE: Record<ScalarName, number> = {
  bool: 1,
  byte: 1,
  ubyte: 1,
  short: 2,
  ushort: 2,
  int: 4,
  uint: 4,
  long: 8,
  ulong: 8,
  float: 4,
  double: 8,
};

const localName = (name: string): string => name.slice(name.lastIndexOf('.') + 1);

function parseNumber(text: string): number {
  const n = /^[-+]?0[xX]/.test(text) ? Number.parseInt(text, 16) : Number(text);
  if (Number.isNaN(n)) throw new Error(`.fbs: not a number: ${text}`);
  return n;
}

/** Parses .fbs text into tables (with vtable slots), enums and unions. */
export function parseFbs(text: string): FbsSchema {
  const p = new Parser(tokenize(text));
  const schema: FbsSchema = { namespace: null, fileIdentifier: null, rootType: null, tables: new Map(), enums: new Map() };
  const rawTables: RawTable[] = [];
  while (!p.done) {
    const keyword = p.next('id');
    if (keyword === 'namespace') schema.namespace = p.next('id');
    else if (keyword === 'include' || keyword === 'attribute' || keyword === 'file_extension') p.next('str');
    else if (keyword === 'file_identifier') schema.fileIdentifier = p.next('str');
    else if (keyword === 'root_type') schema.rootType = localName(p.next('id'));
    else if (keyword === 'enum' || keyword === 'union') {
      const name = p.next('id');
      let scalar: ScalarName | undefined = 'ubyte';
      if (keyword === 'enum') {
        p.expect(':');
        scalar = SCALARS[p.next('id')];
      }
      if (!scalar || scalar === 'float' || scalar === 'double') throw new Error(`.fbs: enum ${name} needs an integer type`);
      if (p.attributes().has('bit_flags')) throw new Error(`.fbs: bit_flags enums (${name}) are not supported`);
      const values = new Map<string, number>(keyword === 'union' ? [['NONE', 0]] : []);
      let nextValue = keyword === 'union' ? 1 : 0;
      for (const [member, valueText] of p.members()) {
        const value = valueText === null ? nextValue : parseNumber(valueText);
        values.set(localName(member), value);
        nextValue = value + 1;
      }
      schema.enums.set(name, { name, scalar, union: keyword === 'union', values });
      continue;
    } else if (keyword === 'table' || keyword === 'struct') {
      const name = p.next('id');
      p.attributes();
      rawTables.push(p.tableBody(name, keyword === 'struct'));
      continue;
    } else throw new Error(`.fbs: "${keyword}" declarations are not supported`);
    p.expect(';');
  }
  for (const raw of rawTables) schema.tables.set(raw.name, resolveTable(raw, schema, rawTables));
  return schema;
}

function resolveType(raw: RawField, schema: FbsSchema, tables: RawTable[]): FbsType {
  const name = localName(raw.type);
  const scalar = SCALARS[name];
  const enumDecl = schema.enums.get(name);
  const table = tables.find((t) => t.name === name);
  let base: FbsType;
  if (scalar) base = { kind: 'scalar', scalar };
  else if (name === 'string') base = { kind: 'string' };
  else if (enumDecl) base = enumDecl.union ? { kind: 'union', name } : { kind: 'scalar', scalar: enumDecl.scalar, enumName: name };
  else if (table) base = { kind: table.struct ? 'struct' : 'table', name };
  else throw new Error(`.fbs line ${raw.line}: unknown type ${raw.type}`);
  return raw.vector ? { kind: 'vector', of: base } : base;
}

function resolveDefault(raw: RawField, type: FbsType, schema: FbsSchema): number | boolean | null {
  if (type.kind !== 'scalar') return null;
  const text = raw.defaultText;
  if (text === null) return type.scalar === 'bool' ? false : 0;
  if (text === 'null') return null;
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^[-+]?(nan|inf|infinity)$/i.test(text)) return /nan/i.test(text) ? Number.NaN : text.startsWith('-') ? -Infinity : Infinity;
  if (type.enumName && /^[A-Za-z_]/.test(text)) {
    const value = schema.enums.get(type.enumName)?.values.get(text);
    if (value === undefined) throw new Error(`.fbs line ${raw.line}: ${text} is not a member of ${type.enumName}`);
    return value;
  }
  const n = parseNumber(text);
  return type.scalar === 'bool' ? n !== 0 : n;
}

function resolveTable(raw: RawTable, schema: FbsSchema, tables: RawTable[]): FbsTable {
  const fields = new Map<string, FbsField>();
  const explicitIds = raw.fields.filter((f) => f.attrs.has('id')).length;
  if (explicitIds !== 0 && explicitIds !== raw.fields.length)
    throw new Error(`.fbs: table ${raw.name} gives some fields an id and not others`);
  let slot = 0;
  let slots = 0;
  for (const f of raw.fields) {
    const type = resolveType(f, schema, tables);
    const deprecated = f.attrs.has('deprecated');
    const align = f.attrs.has('force_align') ? parseNumber(f.attrs.get('force_align')!) : null;
    // A union field is two fields: its member type (a ubyte enum) then the member table.
    const width = type.kind === 'union' ? 2 : 1;
    const first = explicitIds ? parseNumber(f.attrs.get('id')!) - (width - 1) : slot;
    if (type.kind === 'union') {
      fields.set(`${f.name}_type`, {
        name: `${f.name}_type`,
        slot: first,
        type: { kind: 'scalar', scalar: 'ubyte', enumName: type.name },
        default: 0,
        deprecated,
        align: null,
      });
    }
    fields.set(f.name, { name: f.name, slot: first + width - 1, type, default: resolveDefault(f, type, schema), deprecated, align });
    slot = first + width;
    slots = Math.max(slots, slot);
  }
  return { name: raw.name, struct: raw.struct, fields, slots };
}

const cache = new Map<string, FbsSchema>();
function load(file: string): FbsSchema {
  let schema = cache.get(file);
  if (!schema) {
    schema = parseFbs(fs.readFileSync(path.join(import.meta.dirname, file), 'utf8'));
    cache.set(file, schema);
  }
  return schema;
}
/** The official TFLite model schema (root Model, identifier TFL3), parsed on first use. */
export const tfliteSchema = (): FbsSchema => load('schema.fbs');
/** The official TFLite Metadata schema (root ModelMetadata, identifier M001), parsed on first use. */
export const metadataSchema = (): FbsSchema => load('metadata_schema.fbs');

export function tableOf(schema: FbsSchema, table: string): FbsTable {
  const t = schema.tables.get(table);
  if (!t) throw new Error(`The schema has no table ${table}`);
  return t;
}
export function fieldOf(schema: FbsSchema, table: string, field: string): FbsField {
  const f = tableOf(schema, table).fields.get(field);
  if (!f) throw new Error(`The schema's table ${table} has no field ${field}`);
  return f;
}
/** The value of an enum member, or the type index of a union member. */
export function enumValue(schema: FbsSchema, enumName: string, member: string): number {
  const value = schema.enums.get(enumName)?.values.get(member);
  if (value === undefined) throw new Error(`The schema's ${enumName} has no member ${member}`);
  return value;
}
/** The member name of an enum value, or null for a value the schema does not know. */
export function enumMember(schema: FbsSchema, enumName: string, value: number): string | null {
  for (const [name, v] of schema.enums.get(enumName)?.values ?? []) if (v === value) return name;
  return null;
}
