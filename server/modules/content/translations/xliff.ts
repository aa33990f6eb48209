import crypto from 'node:crypto';
import fs from 'node:fs';
import { SaxesParser } from 'saxes';
import js2xliff from 'xliff/js2xliff';
import type { XliffUnit } from 'xliff/xliff2js';
import { LANGUAGE_LIMITS, LANGUAGE_TEXTS, SOURCE_LANGUAGE } from '../../../../common/languages.js';
import { AppError, fail } from '../../../platform/http/errors.js';

/** One translation unit of a translators' file: a record's field in one language. */
export interface FileUnit {
  collection: string;
  recordId: string;
  field: string;
  /** The record's name and the field's label, for the translator's context. */
  context: string;
  source: string;
  target: string;
  /** The English changed since the translation was made: the translation as it was, and the English it was made from. */
  stale: { sourceThen: string } | null;
}

const STALE_NOTE = `${LANGUAGE_TEXTS.stale}.`;
const PALAYAN_NS = 'urn:palayan:translations';

/** A translation as it was exported ('' for none), as the file carries it: the first 16 hex digits of its sha256. */
export const exportedHash = (text: string) => crypto.createHash('sha256').update(text.trim(), 'utf8').digest('hex').slice(0, 16);

/** XLIFF unit ids are NMTOKENs (no '/', no spaces): the unit's key, base64url-encoded. */
export const unitId = (u: Pick<FileUnit, 'collection' | 'recordId' | 'field'>) =>
  Buffer.from(`${u.collection}/${u.recordId}/${u.field}`, 'utf8').toString('base64url');

export function parseUnitId(id: string): Pick<FileUnit, 'collection' | 'recordId' | 'field'> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const [collection, recordId, ...rest] = Buffer.from(id, 'base64url').toString('utf8').split('/');
  if (!collection || !recordId || rest.length === 0) return null;
  return { collection, recordId, field: rest.join('/') };
}

/** A language as XLIFF 2.0 (srcLang en): one file element per collection, the stale mark as a note. */
export function writeXliff(lang: string, units: readonly FileUnit[]): Promise<string> {
  const resources: Record<string, Record<string, XliffUnit>> = {};
  for (const u of units) {
    const notes = [u.context, ...(u.stale ? [`${STALE_NOTE} It was translated from: ${u.stale.sourceThen}`] : [])];
    (resources[u.collection] ??= {})[unitId(u)] = {
      source: u.source,
      ...(u.target ? { target: u.target } : {}),
      note: notes,
      // The translation as exported, by its hash: a unit the translator left as it was changes nothing on import.
      additionalAttributes: { name: `${u.recordId}/${u.field}`, 'xmlns:palayan': PALAYAN_NS, 'palayan:was': exportedHash(u.target) },
    };
  }
  return js2xliff({ sourceLanguage: SOURCE_LANGUAGE, targetLanguage: lang, resources }, { indent: '  ' });
}

export interface ReadUnit {
  id: string;
  source: string;
  target: string | null;
  /** The translation's hash when the file was exported (null: a file not exported here). */
  was: string | null;
  /** The file's language for this unit, when it names one per unit (a CSV or XLSX). */
  lang?: string;
  /** Why the unit cannot be read as one plain text (segments, inline codes), else null. */
  problem: string | null;
}

/** The file is for this language: its code, an alias of it (tl for fil), with or without a region. */
export const languageMatcher =
  (lang: string) =>
  (tag: string): boolean => {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
    return primary === lang || (lang === 'fil' && (primary === 'tl' || primary === 'tgl'));
  };

/** Elements inside one another: an XLIFF 2.0 file needs about eight; deeper is no translators' file. */
const MAX_DEPTH = 32;
/** A comment or processing instruction: translation tools write a line or two; one this long is no translators' file. */
const MAX_COMMENT_CHARS = 64 * 1024;

interface OpenUnit {
  id: string;
  was: string | null;
  segments: number;
  source: string;
  target: string | null;
  inline: boolean;
}

/**
 * An XLIFF 2.0 file's units, for the import, read as a stream (saxes) in one pass: the file is
 * never held whole, no tree is built and no regular expression runs over it, so its cost grows
 * with its size. Refused with a 400, as soon as it shows: a document type declaration (no entity
 * can expand), a file that is not XLIFF 2.x or not well formed, a source language other than
 * English, a target language other than the import's, elements nested deeper than any XLIFF, a
 * comment longer than any tool writes, and more units than an import takes (counted as they
 * come). A unit split into several segments (the last is kept) or whose target holds inline
 * codes (they would reach farmers as text) is read with its problem. Runs in a file reader's
 * thread (read-worker.ts).
 */
export async function readXliffFile(file: string, lang: string): Promise<ReadUnit[]> {
  const E = LANGUAGE_TEXTS.import;
  const broken = (): never => fail('VALIDATION_FAILED', E.brokenXml, { file: E.brokenXml });
  const matchesLang = languageMatcher(lang);
  const parser = new SaxesParser({ position: false });
  const units = new Map<string, ReadUnit>();
  let count = 0;
  let depth = 0;
  let rooted = false;
  let fileId: string | null = null;
  let unit: OpenUnit | null = null;
  /** Inside a unit: 'source' or 'target' while their text is read (null: an ignorable, passed over), with the depth it opened at. */
  let reading: { into: 'source' | 'target' | null; depth: number } | null = null;
  let refusal: unknown = null;

  parser.on('doctype', () => fail('VALIDATION_FAILED', E.doctype, { file: E.doctype }));
  const aside = (text: string) => {
    if (text.length > MAX_COMMENT_CHARS) fail('VALIDATION_FAILED', E.longComment, { file: E.longComment });
  };
  parser.on('comment', aside);
  parser.on('processinginstruction', (pi) => aside(pi.body));
  parser.on('opentag', (tag) => {
    depth += 1;
    if (depth > MAX_DEPTH) broken();
    const name = tag.name;
    const attr = (n: string): string | null => {
      const v = tag.attributes[n];
      return typeof v === 'string' ? v : null;
    };
    if (!rooted) {
      rooted = true;
      if (name !== 'xliff' || !/^2\./.test(attr('version') ?? '')) broken();
      const source = (attr('srcLang') ?? '').toLowerCase();
      if (source.split('-')[0] !== SOURCE_LANGUAGE)
        fail('VALIDATION_FAILED', E.wrongSource(source || '?'), { file: E.wrongSource(source || '?') });
      const target = attr('trgLang') ?? '';
      if (!matchesLang(target)) fail('VALIDATION_FAILED', E.wrongTarget(target, lang), { file: E.wrongTarget(target, lang) });
      return;
    }
    if (reading) {
      // An element inside a target is an inline code; inside a source its text is kept.
      if (reading.into === 'target' && unit) unit.inline = true;
      return;
    }
    if (name === 'file') {
      fileId = attr('id') ?? '';
      return;
    }
    if (name === 'unit') {
      if (fileId === null || unit) broken();
      count += 1;
      if (count > LANGUAGE_LIMITS.maxImportUnits) fail('VALIDATION_FAILED', E.tooManyUnits, { file: E.tooManyUnits });
      unit = { id: attr('id') ?? '', was: attr('palayan:was'), segments: 0, source: '', target: null, inline: false };
      return;
    }
    if (!unit) return;
    // Text between segments kept out of translation (spaces, markup): none of the unit's text.
    if (name === 'ignorable') {
      reading = { into: null, depth };
      return;
    }
    if (name === 'segment') {
      unit.segments += 1;
      unit.source = '';
      unit.target = null;
      unit.inline = false;
      return;
    }
    if (name === 'source' || name === 'target') {
      if (name === 'target') unit.target = '';
      reading = { into: name, depth };
    }
  });
  const text = (t: string) => {
    if (!reading || !unit) return;
    if (reading.into === 'source') unit.source += t;
    else if (reading.into === 'target') unit.target += t;
  };
  parser.on('text', text);
  parser.on('cdata', text);
  parser.on('closetag', (tag) => {
    if (reading && depth === reading.depth) reading = null;
    else if (tag.name === 'unit' && unit && !reading) {
      // A unit with no segment (a file cut short) is no unit: the file is broken.
      if (unit.segments === 0) broken();
      const problem = unit.segments > 1 ? E.segments : unit.inline ? E.inline : null;
      units.set(`${fileId}\u0000${unit.id}`, { id: unit.id, source: unit.source, target: unit.target, was: unit.was, problem });
      unit = null;
    } else if (tag.name === 'file' && !reading) fileId = null;
    depth -= 1;
  });
  parser.on('error', (err) => {
    refusal ??= err;
  });

  const stream = fs.createReadStream(file, { highWaterMark: 64 * 1024 });
  // Bytes that are not UTF-8 would reach farmers as replacement characters: the file is refused.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const decode = (chunk?: Buffer): string => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      return fail('VALIDATION_FAILED', E.notUtf8, { file: E.notUtf8 });
    }
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parser.write(decode(chunk));
      if (refusal) break;
    }
    if (!refusal) {
      parser.write(decode());
      parser.close();
    }
  } catch (err) {
    refusal ??= err;
  } finally {
    stream.destroy();
  }
  if (refusal instanceof AppError) throw refusal;
  if (refusal || !rooted) broken();
  return [...units.values()];
}
