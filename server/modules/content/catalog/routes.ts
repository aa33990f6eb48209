import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CATALOG_KIND_LIST, CATALOG_LIMITS } from '../../../../common/catalog.js';
import { UPLOAD_TEXTS } from '../../../../common/catalog-texts.js';
import {
  stageQuerySchema,
  catalogCreateSchema,
  catalogEntryDetailSchema,
  catalogListQuerySchema,
  nameTakenQuerySchema,
  nameTakenSchema,
  catalogListSchema,
  catalogUpdateSchema,
  discardStagedSchema,
  photoMovedSchema,
  photoMoveSchema,
  stagedImageSchema,
} from '../../../../common/schemas/catalog.js';
import { can } from '../../../../common/permissions.js';
import { fail } from '../../../platform/http/errors.js';
import { failMultipart, failReadingPart, readingPart } from '../../../platform/http/multipart-errors.js';
import { authorize, requireAuth } from '../../../platform/http/policy.js';
import { createCatalogService } from './service.js';
import { catalogSheet } from './export.js';
import { exportQuerySchema } from '../../../../common/schemas/spreadsheets.js';
import { sendSheet } from '../../../platform/spreadsheets/sheet-writer.js';

const idParams = z.object({ id: z.string().min(1).max(64) });

/**
 * Pests and diseases: one set of routes per kind under /api/rice_pests and /api/rice_diseases.
 * Photos are uploaded one per request (staged), then named by the create or update request;
 * a stored photo is moved within the entry's order one at a time.
 */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: CATALOG_LIMITS.maxUploadBytes, files: 1, fields: 10, parts: 12, fieldSize: 1024 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  for (const kind of CATALOG_KIND_LIST) {
    const service = createCatalogService(app.ctx, kind);
    const base = `/api/${kind.route}`;
    const tags = [kind.route];

    r.get(
      base,
      {
        config: { access: 'content.view' },
        schema: {
          tags,
          summary: `Live ${kind.texts.noun} entries, newest first, searched by name, scientific name or description`,
          querystring: catalogListQuerySchema,
          response: { 200: catalogListSchema },
        },
      },
      async (request) => service.list(request.query),
    );

    r.get(
      `${base}/name-taken`,
      {
        config: { access: 'content.view' },
        schema: {
          tags,
          summary: `Another live ${kind.texts.noun} with this name (trimmed, any case), or null`,
          querystring: nameTakenQuerySchema,
          response: { 200: nameTakenSchema },
        },
      },
      async (request) => service.nameTaken(request.query.name, request.query.except ?? null),
    );

    r.get(
      `${base}/export`,
      {
        compress: false, // streamed as written (app.ts compresses JSON only)
        config: { access: 'content.view' },
        schema: { tags, summary: `The ${kind.texts.noun} list as searched, as CSV or XLSX (no photos)`, querystring: exportQuerySchema },
      },
      async (request, reply) => sendSheet(reply, catalogSheet(app.ctx, kind, request.query.format, request.query.search)),
    );

    r.get(
      `${base}/:id`,
      {
        config: { access: 'content.view' },
        schema: {
          tags,
          summary: `One ${kind.texts.noun} with all its images`,
          params: idParams,
          response: { 200: catalogEntryDetailSchema },
        },
      },
      async (request) => service.detail(request.params.id),
    );

    r.post(
      `${base}/images`,
      {
        config: { access: 'content.create' },
        schema: {
          tags,
          summary:
            'Stage one photo (multipart, field "file"); photos larger than PHOTO_MAX_EDGE are made that size ' +
            'unless keepOriginal (super admins); returns its id for the save request',
          querystring: stageQuerySchema,
          response: { 201: stagedImageSchema },
        },
      },
      async (request, reply) => {
        const auth = requireAuth(request);
        const keepOriginal = request.query.keepOriginal === 'true';
        if (keepOriginal) authorize(request, 'trainingData.export');
        if (!request.isMultipart()) fail('UNSUPPORTED_MEDIA_TYPE', UPLOAD_TEXTS.noFile, { file: UPLOAD_TEXTS.noFile });
        const part = await request.file().catch((err: unknown) => failMultipart(err, UPLOAD_TEXTS));
        if (!part) fail('VALIDATION_FAILED', UPLOAD_TEXTS.noFile, { file: UPLOAD_TEXTS.noFile });
        const staged = await service
          .stage(readingPart(part.file), { filename: part.filename, uploadedBy: auth.user.id, keepOriginal }, () => part.file.truncated)
          .catch((err: unknown) => failReadingPart(err, UPLOAD_TEXTS));
        return reply.code(201).send(staged);
      },
    );

    r.post(
      `${base}/images/discard`,
      {
        config: { access: 'content.create' },
        schema: {
          tags,
          summary: 'Discard staged photos of the signed-in user that were not saved',
          body: discardStagedSchema,
          response: { 200: z.object({ removed: z.number() }) },
        },
      },
      async (request) => ({ removed: await service.discardStaged(request.body.ids, requireAuth(request).actor) }),
    );

    r.post(
      base,
      {
        config: { access: 'content.create', review: { collection: kind.collection, action: 'create' } },
        schema: {
          tags,
          summary: `Create a ${kind.texts.noun} with its staged photos`,
          body: catalogCreateSchema(kind),
          response: { 201: catalogEntryDetailSchema },
        },
      },
      async (request, reply) => {
        const auth = requireAuth(request);
        return reply
          .code(201)
          .send(await service.create(request.body, auth.actor, { canSetTrainingClass: can(auth.user.role, 'trainingData.export') }));
      },
    );

    r.put(
      `${base}/:id`,
      {
        config: { access: 'content.update', review: { collection: kind.collection, action: 'update' } },
        schema: {
          tags,
          summary: `Update a ${kind.texts.noun} (optimistic version check)`,
          params: idParams,
          body: catalogUpdateSchema(kind),
          response: { 200: catalogEntryDetailSchema },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        return service.update(request.params.id, request.body, auth.actor, {
          canSetTrainingClass: can(auth.user.role, 'trainingData.export'),
        });
      },
    );

    r.post(
      `${base}/:id/photos/move`,
      {
        config: { access: 'content.update', review: { collection: kind.collection, action: 'move_photo' } },
        schema: {
          tags,
          summary:
            `Move one photo of a ${kind.texts.noun} to a place in its order (0: the main photo, which the farmer app shows first), ` +
            `on the edit version the user saw (409 when it moved since); where the changes need review, a pending change (202)`,
          params: idParams,
          body: photoMoveSchema(kind),
          response: { 200: photoMovedSchema },
        },
      },
      async (request) => {
        const { version, photoId, position } = request.body;
        return service.movePhotos(request.params.id, version, [{ photoId, position }], requireAuth(request).actor);
      },
    );

    r.delete(
      `${base}/:id`,
      {
        config: { access: 'content.delete', review: { collection: kind.collection, action: 'delete' } },
        schema: { tags, summary: `Soft-delete a ${kind.texts.noun}`, params: idParams, response: { 204: z.null() } },
      },
      async (request, reply) => {
        await service.remove(request.params.id, requireAuth(request).actor);
        return reply.code(204).send(null);
      },
    );
  }
};
export default routes;
