import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import { LANGUAGE_TEXTS, type TranslatedCollection } from '../../../../common/languages.js';
import type { Role } from '../../../../common/permissions.js';
import type { TranslationImportReport } from '../../../../common/schemas/languages.js';
import type { Database } from '../../../db/types.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { ReviewChange, ReviewedAction, ReviewGate, ReviewProposal, ReviewSubmission } from '../../../platform/writes/review-gate.js';
import { translatedCollection, translatedCollections } from './adapters.js';
import { collectionLabel, commitImport, importReport, writeImport, type Planned, type PlannedUnit } from './files.js';
import { translationsRepository as repo } from './repository.js';
import { createTranslationsService } from './service.js';
import { requireTranslatorOf, translationProblem } from './writes.js';

/** A translators' file's changes to one collection, kept as a pending change. */
interface FileChange {
  lang: string;
  fileName: string;
  units: PlannedUnit[];
}

const statusOf = (u: PlannedUnit) => (u.text === '' ? 'removed' : u.before === null ? 'new' : 'updated');

function proposalOf(change: FileChange): ReviewProposal {
  const summary = { new: 0, updated: 0, removed: 0 };
  for (const u of change.units) summary[statusOf(u)] += 1;
  return {
    recordId: null,
    recordName: `${change.fileName} (${change.lang})`,
    baseVersion: null,
    input: change,
    summary,
    touches: [...new Set(change.units.map((u) => u.recordId))],
  };
}

/** A file's changes to a collection whose changes need review, as its pending change. */
const fileProposal = (planned: Planned, collection: TranslatedCollection): ReviewProposal =>
  proposalOf({ lang: planned.preview.lang, fileName: planned.preview.fileName, units: planned.units.get(collection) ?? [] });

/** The file's collections whose changes need review now. */
export async function reviewedCollections(gate: ReviewGate | null, planned: Planned): Promise<TranslatedCollection[]> {
  const out: TranslatedCollection[] = [];
  for (const c of planned.units.keys()) if (gate && (await gate.reviewed(c))) out.push(c);
  return out;
}

/**
 * The import, in one transaction: each collection whose changes need review (read inside that
 * transaction) gets its units as a pending change, and the others' units are written.
 */
export async function commitOrSubmit(
  ctx: AppContext,
  gate: ReviewGate | null,
  request: FastifyRequest,
  planned: Planned,
  actor: Actor,
): Promise<TranslationImportReport> {
  if (!gate) return commitImport(ctx, planned, actor);
  const candidates = [...planned.units.keys()].map((c) => ({
    collection: c as ReviewSubmission['collection'],
    action: 'translate_file' as const,
    proposal: fileProposal(planned, c),
  }));
  const sent = await gate.submitWhereReviewed(request, candidates, (trx, cmd, unreviewed) =>
    writeImport(trx, cmd, translatedCollections(ctx), planned, unreviewed as TranslatedCollection[], actor),
  );
  return importReport(
    planned,
    sent.result,
    sent.changes.map(({ id, collection }) => ({
      id,
      collection,
      label: collectionLabel(collection as TranslatedCollection),
      units: planned.units.get(collection as TranslatedCollection)?.length ?? 0,
    })),
  );
}

/** The records' translations in the change's language now, by record and field. */
async function currentTexts(
  db: Kysely<Database> | Transaction<Database>,
  collection: TranslatedCollection,
  change: FileChange,
): Promise<Map<string, string>> {
  const rows = await repo.ofRecords(db, collection, [...new Set(change.units.map((u) => u.recordId))], change.lang);
  return new Map(rows.map((r) => [`${r.recordId}\u0000${r.field}`, r.text]));
}

/**
 * Publishing a translators' file's change: written as the import writes it, as its author. A
 * translation changed in the console since the reviewer saw it, or a record gone, is a 409
 * (the change is rebased, and reviewed again).
 */
async function apply(
  ctx: AppContext,
  collection: TranslatedCollection,
  change: ReviewChange,
  author: Actor,
  authorRole: Role,
): Promise<void> {
  // An author who may no longer translate option values cannot publish them either.
  requireTranslatorOf(collection, authorRole);
  const input = change.input as FileChange;
  await createTranslationsService(ctx).requireLanguage(input.lang);
  const part = translatedCollection(ctx, collection);
  const planned: Planned = {
    preview: {
      fileName: input.fileName,
      lang: input.lang,
      units: input.units.length,
      counts: { changed: input.units.length, unchanged: 0, error: 0 },
      rows: [],
    },
    units: new Map([[collection, input.units]]),
  };
  await runCommand(ctx, author, async (trx, cmd) => {
    const sources = await part.sources(
      trx,
      input.units.map((u) => u.recordId),
    );
    const now = await currentTexts(trx, collection, input);
    for (const u of input.units) {
      if (!sources.get(u.recordId)?.fields[u.field] || (now.get(`${u.recordId}\u0000${u.field}`) ?? null) !== u.before)
        fail('VERSION_CONFLICT');
    }
    await writeImport(trx, cmd, translatedCollections(ctx), planned, [collection], author, ' (reviewed)');
  });
}

/** The change decided again on the translations as they are now: units of records gone, or already so, are left out. */
async function rebase(ctx: AppContext, collection: TranslatedCollection, change: ReviewChange): Promise<ReviewProposal> {
  const input = change.input as FileChange;
  const sources = await translatedCollection(ctx, collection).sources(
    ctx.db,
    input.units.map((u) => u.recordId),
  );
  const now = await currentTexts(ctx.db, collection, input);
  const units: PlannedUnit[] = [];
  for (const u of input.units) {
    const source = sources.get(u.recordId);
    if (!source || source.fields[u.field] === undefined) continue;
    const before = now.get(`${u.recordId}\u0000${u.field}`) ?? null;
    if ((u.text === '' && before === null) || before === u.text) continue;
    if (u.text !== '' && translationProblem(collection, u.field, source, u.text)) continue;
    units.push({ ...u, name: source.name, before });
  }
  if (units.length === 0) fail('CONFLICT', LANGUAGE_TEXTS.import.nothingLeft);
  return proposalOf({ ...input, units });
}

/** A translators' file's changes to one collection under review: rows shown to the reviewer, published as the import writes them. */
export function translateFile(collection: TranslatedCollection): ReviewedAction {
  return {
    apply: (ctx, change, author, authorRole) => apply(ctx, collection, change, author, authorRole),
    rebase: (ctx, change) => rebase(ctx, collection, change),
    proposed: async () => null,
    rows: (change) =>
      (change.input as FileChange).units.map((u) => ({
        row: u.row,
        name: u.name,
        status: statusOf(u),
        changed: [u.label],
        values: { english: u.madeFrom, published: u.before ?? '', proposed: u.text },
      })),
  };
}
