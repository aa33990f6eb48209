import crypto from 'node:crypto';
import js2xliff from 'xliff/js2xliff';
import xliff2js, { type XliffUnit } from 'xliff/xliff2js';
import { LANGUAGE_TEXTS, SOURCE_LANGUAGE } from '../../../common/languages.js';
import { fail } from '../../platform/http/errors.js';

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
export const unitId = (u: Pick<FileUnit, 'collection' | 'recordId' | 'field'>) => Buffer.from(`${u.collection}/${u.recordId}/${u.field}`, 'utf8').toString('base64url');

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
      source: u.source, ...(u.target ? { target: u.target } : {}), note: notes,
      // The translation as exported, by its hash: a unit the translator left as it was changes nothing on import.
      additionalAttributes: { name: `${u.recordId}/${u.field}`, 'xmlns:palayan': PALAYAN_NS, 'palayan:was': exportedHash(u.target) },
    };
  }
  return js2xliff({ sourceLanguage: SOURCE_LANGUAGE, targetLanguage: lang, resources }, { indent: '  ' });
}

/**
 * Units the reader would take apart: one split into several segments (the package keeps the
 * last), or holding inline codes in its target (they would reach farmers as text). By unit id.
 */
function unitShapes(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of xml.matchAll(/<unit\b([^>]*)>([\s\S]*?)<\/unit>/g)) {
    const id = /\bid="([^"]*)"/.exec(m[1] ?? '')?.[1];
    if (!id) continue;
    const body = m[2] ?? '';
    if ((body.match(/<segment\b/g) ?? []).length > 1) out.set(id, LANGUAGE_TEXTS.import.segments);
    else if (/<target\b[^>]*>[\s\S]*?<(?!\/target>)[\s\S]*?<\/target>/.test(body)) out.set(id, LANGUAGE_TEXTS.import.inline);
  }
  return out;
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

const asText = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.map(asText).join('') : v === undefined || v === null ? '' : String(v));

/**
 * An XLIFF 2.0 file's units, for the import. Refused with a 400 before anything is read: a
 * document type declaration (no entity can expand), a file that is not XLIFF 2.x, a source
 * language other than English, a target language other than the import's.
 */
export async function readXliff(xml: string, lang: string, matchesLang: (tag: string) => boolean): Promise<ReadUnit[]> {
  const E = LANGUAGE_TEXTS.import;
  if (/<!DOCTYPE/i.test(xml)) fail('VALIDATION_FAILED', E.doctype, { file: E.doctype });
  let doc;
  try {
    doc = await xliff2js(xml, { inlineAsString: true });
  } catch {
    fail('VALIDATION_FAILED', E.brokenXml, { file: E.brokenXml });
  }
  if (!doc?.resources) fail('VALIDATION_FAILED', E.brokenXml, { file: E.brokenXml });
  const source = (doc.sourceLanguage ?? '').toLowerCase();
  if (source.split('-')[0] !== SOURCE_LANGUAGE) fail('VALIDATION_FAILED', E.wrongSource(source || '?'), { file: E.wrongSource(source || '?') });
  const target = doc.targetLanguage ?? '';
  if (!matchesLang(target)) fail('VALIDATION_FAILED', E.wrongTarget(target, lang), { file: E.wrongTarget(target, lang) });
  const shapes = unitShapes(xml);
  const units: ReadUnit[] = [];
  const walk = (entries: Record<string, XliffUnit | undefined>) => {
    for (const [id, unit] of Object.entries(entries)) {
      // A unit with no segment (a file cut short) is no unit: the file is broken.
      if (!unit || typeof unit !== 'object') fail('VALIDATION_FAILED', E.brokenXml, { file: E.brokenXml });
      if (unit.groupUnits) { walk(unit.groupUnits); continue; }
      const was = unit.additionalAttributes?.['palayan:was'];
      units.push({
        id, source: asText(unit.source), target: unit.target === undefined ? null : asText(unit.target),
        was: typeof was === 'string' ? was : null, problem: shapes.get(id) ?? null,
      });
    }
  };
  for (const file of Object.values(doc.resources)) {
    if (!file || typeof file !== 'object') fail('VALIDATION_FAILED', E.brokenXml, { file: E.brokenXml });
    walk(file);
  }
  return units;
}
