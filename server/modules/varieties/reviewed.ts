import type { FastifyRequest } from 'fastify';
import { importOnErrorsSchema } from '../../../common/schemas/spreadsheets.js';
import type { VarietyInput } from '../../../common/schemas/varieties.js';
import { can } from '../../../common/permissions.js';
import { fail } from '../../platform/http/errors.js';
import { withUploadedTable } from '../../platform/spreadsheets/upload.js';
import type { ReviewChange, ReviewedAction, ReviewedPart } from '../../platform/writes/review-gate.js';
import { normalize } from './fields.js';
import { createVarietyImport, mappingOf, type Read } from './import.js';
import { varietiesRepository } from './repository.js';
import { createVarietiesService } from './service.js';

const COLLECTION = 'rice_seed_varieties';

interface SaveInput { id: string | null; body: VarietyInput }
interface ImportInput { read: Read; fileName: string; onErrors: 'skip' | 'stop'; rows: Array<{ row: number; name: string; status: string; changed: string[] }> }

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** Runs `work` with a varieties service, closed after (it holds the shared search cache). */
async function withService<T>(ctx: Parameters<typeof createVarietiesService>[0], work: (service: ReturnType<typeof createVarietiesService>) => Promise<T>): Promise<T> {
  const service = createVarietiesService(ctx);
  try { return await work(service); } finally { service.close(); }
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
    await withService(ctx, async (service) => {
      if (id === null) await service.create(body, author);
      else await service.update(id, body, change.baseVersion ?? 0, author);
    });
  },
  proposed: async (_ctx, change: ReviewChange) => ({ fields: normalize((change.input as SaveInput).body) }),
});

/** Varieties' add, edit, delete and spreadsheet import as pending changes, published through their own services. */
const varieties: ReviewedPart = {
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
      async apply(ctx, change, author) {
        const row = await varietiesRepository.findLive(ctx.db, change.recordId!);
        if (!row) fail('NOT_FOUND');
        if (Number(row.version) !== change.baseVersion) fail('VERSION_CONFLICT');
        await withService(ctx, (service) => service.remove(row.id, author));
      },
      proposed: async () => null,
    },
    import: {
      /** The sheet is read and checked as the import's dry run; the rows are kept, the file is not. */
      async propose(ctx, request, auth) {
        if (!can(auth.role, 'content.update')) fail('FORBIDDEN');
        const imports = createVarietyImport(ctx);
        return withUploadedTable(ctx, request, async (upload, table) => {
          const onErrors = importOnErrorsSchema.catch('stop').parse(upload.fields.onErrors ?? 'stop');
          const read = await imports.read(table, mappingOf(upload));
          const { counts, rows } = await imports.decided(read);
          const input: ImportInput = { read, fileName: upload.fileName, onErrors, rows: rows.map(({ row, name, status, changed }) => ({ row, name, status, changed: [...changed] })) };
          return { recordId: null, recordName: upload.fileName, baseVersion: null, input, summary: { ...counts } };
        });
      },
      /** Decided again when published: rows are matched to the varieties as they are then. */
      async apply(ctx, change, author) {
        const { read, fileName, onErrors } = change.input as ImportInput;
        await createVarietyImport(ctx).commitRead(read, fileName, onErrors, author);
      },
      proposed: async () => null,
      rows: (change) => (change.input as ImportInput).rows,
    },
  },
};

export default [varieties];
