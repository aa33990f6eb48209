import type { FastifyRequest } from 'fastify';
import { importOnErrorsSchema } from '../../../../common/schemas/spreadsheets.js';
import { IMPORT_TEXTS } from '../../../../common/spreadsheets.js';
import type { AppContext } from '../../../platform/http/context.js';
import type { VarietyInput } from '../../../../common/schemas/varieties.js';
import { can } from '../../../../common/permissions.js';
import { fail } from '../../../platform/http/errors.js';
import { withUploadedTable } from '../../../platform/spreadsheets/upload.js';
import type { ReviewChange, ReviewedAction, ReviewedPart, ReviewProposal } from '../../../platform/writes/review-gate.js';
import { normalize } from './fields.js';
import { createVarietyImport, mappingOf, type Read } from './import.js';
import { varietiesRepository } from './repository.js';
import { varietiesVersioned } from './versioned.js';
import { versionsRecords } from '../../publishing/versions/index.js';
import { parseSnapshot } from '../../publishing/versions/index.js';
import { createVarietiesService } from './service.js';

const COLLECTION = 'rice_seed_varieties';

interface SaveInput {
  id: string | null;
  body: VarietyInput;
}
interface ImportInput {
  read: Read;
  fileName: string;
  onErrors: 'skip' | 'stop';
  rows: Array<{ row: number; name: string; status: string; changed: string[]; values: Record<string, string> }>;
  /** The varieties it updates, at the versions the reviewer sees. */
  targets: Array<{ id: string; version: number }>;
}

/** An import as the review shows it, decided against the varieties as they are now; refused when its errors stop it. */
async function proposeImport(ctx: AppContext, read: Read, fileName: string, onErrors: 'skip' | 'stop'): Promise<ReviewProposal> {
  const { counts, rows, targets } = await createVarietyImport(ctx).decided(read);
  if (counts.error > 0 && onErrors === 'stop')
    fail('VALIDATION_FAILED', IMPORT_TEXTS.file.hasErrors(counts.error), { file: IMPORT_TEXTS.file.hasErrors(counts.error) });
  const input: ImportInput = { read, fileName, onErrors, rows, targets };
  return { recordId: null, recordName: fileName, baseVersion: null, input, summary: { ...counts }, touches: targets.map((t) => t.id) };
}

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** Runs `work` with a varieties service. */
const withService = <T>(
  ctx: Parameters<typeof createVarietiesService>[0],
  work: (service: ReturnType<typeof createVarietiesService>) => Promise<T>,
): Promise<T> => work(createVarietiesService(ctx));

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** An edit made again on the variety as published now: what it changed from its base is kept, the rest is the published values. */
async function rebaseEdit(ctx: AppContext, change: ReviewChange): Promise<ReviewProposal> {
  const { id, body } = change.input as SaveInput & { id: string };
  const live = await varietiesRepository.findLive(ctx.db, id);
  if (!live) fail('NOT_FOUND');
  const now = (await varietiesVersioned.current(ctx.db, [id])).get(id)!.snapshot.fields;
  const baseRow =
    change.baseVersion === null ? undefined : await versionsRecords.atRecordVersion(ctx.db, COLLECTION, id, change.baseVersion);
  const base = baseRow ? parseSnapshot(baseRow.snapshot).fields : null;
  const proposed = normalize(body) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...body };
  if (base) for (const key of Object.keys(proposed)) if (same(proposed[key], base[key])) merged[key] = now[key];
  const next = merged as VarietyInput;
  return { recordId: id, recordName: next.varietyName, baseVersion: Number(live.version), input: { id, body: next } satisfies SaveInput };
}

const save = (isCreate: boolean): ReviewedAction => ({
  async propose(ctx, request) {
    const { version, ...body } = request.body as VarietyInput & { version?: number };
    const id = isCreate ? null : idOf(request);
    await withService(ctx, (service) => service.checkSave(id, body, version ?? null));
    return { recordId: id, recordName: body.varietyName.trim(), baseVersion: version ?? null, input: { id, body } satisfies SaveInput };
  },
  async apply(ctx, change, author) {
    const { id, body } = change.input as SaveInput;
    return withService(ctx, async (service) => {
      if (id === null) return (await service.create(body, author)).id;
      await service.update(id, body, change.baseVersion ?? 0, author);
      return undefined;
    });
  },
  ...(isCreate ? {} : { rebase: rebaseEdit }),
  proposed: async (_ctx, change: ReviewChange) => ({ fields: normalize((change.input as SaveInput).body) }),
});

/** Varieties' add, edit, delete and spreadsheet import as pending changes, published through their own services. */
export const varietiesReviewed: ReviewedPart = {
  collection: COLLECTION,
  actions: {
    create: save(true),
    update: save(false),
    delete: {
      async propose(ctx, request) {
        const row = await varietiesRepository.findLive(ctx.db, idOf(request));
        if (!row) fail('NOT_FOUND');
        return { recordId: row.id, recordName: row.varietyName, baseVersion: Number(row.version), input: { id: row.id } };
      },
      apply: (ctx, change, author) => withService(ctx, (service) => service.remove(change.recordId!, author, change.baseVersion ?? 0)),
      proposed: async () => null,
    },
    import: {
      /** The sheet is read and checked as the import's dry run; the rows are kept, the file is not. */
      async propose(ctx, request, auth) {
        if (!can(auth.role, 'content.update')) fail('FORBIDDEN');
        return withUploadedTable(ctx, request, async (upload, table) => {
          const onErrors = importOnErrorsSchema.catch('stop').parse(upload.fields.onErrors ?? 'stop');
          return proposeImport(ctx, await createVarietyImport(ctx).read(table, mappingOf(upload)), upload.fileName, onErrors);
        });
      },
      /** Decided again when published: a variety it updates that changed since, or a new one it would update, is a 409 (rebase decides it again). */
      async apply(ctx, change, author) {
        const { read, fileName, onErrors, targets } = change.input as ImportInput;
        await createVarietyImport(ctx).commitRead(read, fileName, onErrors, author, targets);
      },
      rebase: (ctx, change) => {
        const { read, fileName, onErrors } = change.input as ImportInput;
        return proposeImport(ctx, read, fileName, onErrors);
      },
      proposed: async () => null,
      rows: (change) => (change.input as ImportInput).rows,
    },
  },
};
