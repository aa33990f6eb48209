import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  varietyIdParamsSchema,
  incompleteVarietiesQuerySchema,
  incompleteVarietiesSchema,
  varietyNameQuerySchema,
  varietyNameTakenSchema,
  varietyInputSchema,
  varietyListQuerySchema,
  varietyListSchema,
  varietySchema,
  varietyUpdateSchema,
} from '../../../../common/schemas/varieties.js';
import {
  importOnErrorsSchema,
  importPreviewSchema,
  importReportSchema,
  selectionExportQuerySchema,
} from '../../../../common/schemas/spreadsheets.js';
import { SPREADSHEET_LIMITS } from '../../../../common/spreadsheets.js';
import { derivedFrom } from '../../../platform/cache/kept.js';
import { authorize, requireAuth } from '../../../platform/http/policy.js';
import { sendSheet } from '../../../platform/spreadsheets/sheet-writer.js';
import { removeStaleUploads, withUploadedTable } from '../../../platform/spreadsheets/upload.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { varietySheet } from './export.js';
import { createVarietyImport, mappingOf } from './import.js';
import { tidyVarietySearch } from '../../../db/variety-search.js';
import { createVarietiesService } from './service.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const COLLECTION = 'rice_seed_varieties';

/** Rice varieties (docs/PRODUCT.md section 2): any signed-in role views, adds, edits and deletes. */
const routes: FastifyPluginAsync = async (app) => {
  const service = createVarietiesService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['varieties'];
  const imports = createVarietyImport(app.ctx);
  scheduleJob(app, { name: 'stale import uploads', everyMs: HOUR_MS, runOnReady: true, run: () => removeStaleUploads(app.ctx, HOUR_MS) });
  scheduleJob(app, { name: 'variety search index upkeep', everyMs: DAY_MS, runOnReady: true, run: () => tidyVarietySearch(app.ctx.db) });
  await app.register(multipart, {
    limits: { fileSize: SPREADSHEET_LIMITS.maxBytes, files: 1, fields: 4, parts: 6, fieldSize: 64 * 1024 },
  });

  r.post(
    '/api/varieties/import/preview',
    {
      config: { access: 'content.create' },
      schema: {
        tags,
        summary:
          'Dry run of a spreadsheet import (multipart: "mapping" JSON, then "file" .csv or .xlsx): every row\'s result, nothing saved',
        response: { 200: importPreviewSchema },
      },
    },
    // Sent as written: a preview of 20,000 rows is not walked again by the response schema's
    // serializer, which would hold a second copy of it (the schema still documents it).
    async (request, reply) => {
      const preview = await withUploadedTable(app.ctx, request, (upload, table) =>
        imports.preview(table, upload.fileName, mappingOf(upload)),
      );
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(preview) as never);
    },
  );

  r.post(
    '/api/varieties/import',
    {
      config: { access: 'content.create', review: { collection: COLLECTION, action: 'import' } },
      schema: {
        tags,
        summary: 'Import a spreadsheet (multipart: "mapping", "onErrors" skip|stop, then "file") in one transaction',
        response: { 200: importReportSchema },
      },
    },
    async (request) => {
      authorize(request, 'content.update');
      const actor = requireAuth(request).actor;
      return withUploadedTable(app.ctx, request, (upload, table) => {
        const onErrors = importOnErrorsSchema.catch('stop').parse(upload.fields.onErrors ?? 'stop');
        return imports.commit(table, upload.fileName, mappingOf(upload), onErrors, actor);
      });
    },
  );

  r.get(
    '/api/varieties/export',
    {
      compress: false, // streamed as written (app.ts compresses JSON only)
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'The list as searched, or the selected records (ids), as CSV or XLSX',
        querystring: selectionExportQuerySchema,
      },
    },
    async (request, reply) => sendSheet(reply, varietySheet(app.ctx, request.query.format, request.query.search, request.query.ids)),
  );

  // A cached page is the same object until the next write: its JSON is made once, too.
  r.get(
    '/api/varieties',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'Live varieties, searched and paged (20 a page)',
        querystring: varietyListQuerySchema,
        response: { 200: varietyListSchema },
      },
    },
    async (request, reply) => {
      const list = await service.list(request.query);
      const body = derivedFrom(list, 'json', () => JSON.stringify(varietyListSchema.parse(list)));
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  r.get(
    '/api/varieties/name-taken',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'Another live variety with this name (trimmed, any case), or null',
        querystring: varietyNameQuerySchema,
        response: { 200: varietyNameTakenSchema },
      },
    },
    async (request) => service.nameTaken(request.query.name, request.query.except ?? null),
  );

  r.get(
    '/api/varieties/incomplete',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'Live varieties that lack required fields, by name, with what each lacks (20 a page)',
        querystring: incompleteVarietiesQuerySchema,
        response: { 200: incompleteVarietiesSchema },
      },
    },
    async (request) => service.incomplete(request.query.page),
  );

  r.get(
    '/api/varieties/:id',
    {
      config: { access: 'content.view' },
      schema: { tags, summary: 'One live variety', params: varietyIdParamsSchema, response: { 200: varietySchema } },
    },
    async (request) => service.get(request.params.id),
  );

  r.post(
    '/api/varieties',
    {
      config: { access: 'content.create', review: { collection: COLLECTION, action: 'create' } },
      schema: { tags, summary: 'Add a variety', body: varietyInputSchema, response: { 201: varietySchema } },
    },
    async (request, reply) => {
      const created = await service.create(request.body, requireAuth(request).actor);
      return reply.code(201).send(created);
    },
  );

  r.put(
    '/api/varieties/:id',
    {
      config: { access: 'content.update', review: { collection: COLLECTION, action: 'update' } },
      schema: {
        tags,
        summary: 'Save a variety over the version the form edited (409 when newer)',
        params: varietyIdParamsSchema,
        body: varietyUpdateSchema,
        response: { 200: varietySchema },
      },
    },
    async (request) => {
      const { version, ...input } = request.body;
      return service.update(request.params.id, input, version, requireAuth(request).actor);
    },
  );

  r.delete(
    '/api/varieties/:id',
    {
      config: { access: 'content.delete', review: { collection: COLLECTION, action: 'delete' } },
      schema: { tags, summary: 'Soft-delete a variety', params: varietyIdParamsSchema, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await service.remove(request.params.id, requireAuth(request).actor);
      return reply.code(204).send(null);
    },
  );
};
export default routes;
