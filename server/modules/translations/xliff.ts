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
      additionalAttributes: { name: `${u.recordId}/${u.field}` },
    };
  }
  return js2xliff({ sourceLanguage: SOURCE_LANGUAGE, targetLanguage: lang, resources }, { indent: '  ' });
}

export interface ReadUnit { id: string; source: string; target: string | null; staleNoteKept: boolean }

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
  const units: ReadUnit[] = [];
  const walk = (entries: Record<string, XliffUnit | undefined>) => {
    for (const [id, unit] of Object.entries(entries)) {
      // A unit with no segment (a file cut short) is no unit: the file is broken.
      if (!unit || typeof unit !== 'object') fail('VALIDATION_FAILED', E.brokenXml, { file: E.brokenXml });
      if (unit.groupUnits) { walk(unit.groupUnits); continue; }
      const notes = Array.isArray(unit.note) ? unit.note.map(asText) : unit.note === undefined ? [] : [asText(unit.note)];
      units.push({ id, source: asText(unit.source), target: unit.target === undefined ? null : asText(unit.target), staleNoteKept: notes.some((n) => n.startsWith(STALE_NOTE)) });
    }
  };
  for (const file of Object.values(doc.resources)) {
    if (!file || typeof file !== 'object') fail('VALIDATION_FAILED', E.brokenXml, { file: E.brokenXml });
    walk(file);
  }
  return units;
}
