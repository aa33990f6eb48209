import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EVALUATION_SET_LIMITS, EVALUATION_SET_TEXTS, EVALUATION_SETS_PATH } from '../../../../common/evaluation-sets.js';
import { evaluationSetFieldsSchema, evaluationSetListSchema, evaluationSetSchema } from '../../../../common/schemas/evaluation-sets.js';
import { z } from '../../../../common/schemas/zod.js';
import { fail, invalid } from '../../../platform/http/errors.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { receiveSheet } from '../../../platform/spreadsheets/upload.js';
import { createEvaluationSetsService } from './service.js';

const ACCESS = { access: 'scannerModels.manage' as const };
const tags = ['evaluation sets'];
const E = EVALUATION_SET_TEXTS.errors;
const idParams = z.object({ id: z.string().min(1).max(100) });
const photoParams = idParams.extend({ photoId: z.string().min(1).max(100), variant: z.enum(['thumb', 'original']) });
const TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif' };

/** Evaluation sets: listed, uploaded as a ZIP, deleted, and their photos served to the Models screen's report. */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, {
    limits: { fileSize: EVALUATION_SET_LIMITS.maxBytes, files: 1, fields: 2, parts: 3, fieldSize: 4 * 1024 },
  });
  const service = createEvaluationSetsService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    EVALUATION_SETS_PATH,
    { config: ACCESS, schema: { tags, summary: 'Every evaluation set, newest first', response: { 200: evaluationSetListSchema } } },
    async () => ({ sets: await service.list() }),
  );

  r.post(
    EVALUATION_SETS_PATH,
    {
      config: ACCESS,
      schema: {
        tags,
        summary:
          'Upload an evaluation set (multipart: "name", then "file", a ZIP with one folder per label): checked on a file ' +
          'reader, photos cleaned of location and stored, leaks to the training set found; all or nothing',
        response: { 201: evaluationSetSchema },
      },
    },
    async (request, reply) => {
      const upload = await receiveSheet(app.ctx, request, { tooLarge: E.tooLarge });
      try {
        const fields = evaluationSetFieldsSchema.safeParse({ name: upload.fields.name ?? '' });
        if (!fields.success) invalid({ name: fields.error.issues[0]?.message ?? E.nameRequired });
        const set = await service.create(upload, fields.data.name, requireAuth(request).actor);
        return reply.code(201).send(set);
      } finally {
        await upload.remove();
      }
    },
  );

  r.delete(
    `${EVALUATION_SETS_PATH}/:id`,
    {
      config: ACCESS,
      schema: { tags, summary: 'Delete an evaluation set and its photos (evaluations made on it keep their results)', params: idParams },
    },
    async (request, reply) => {
      await service.remove(request.params.id, requireAuth(request).actor);
      return reply.code(204).send(null);
    },
  );

  r.get(
    `${EVALUATION_SETS_PATH}/:id/photos/:photoId/:variant`,
    { config: ACCESS, schema: { tags, summary: "A set photo's thumbnail or stored original", params: photoParams } },
    async (request, reply) => {
      const key = await service.photoFile(request.params.id, request.params.photoId, request.params.variant);
      const stat = await app.ctx.storage.stat(key);
      if (!stat) fail('NOT_FOUND');
      reply.header('content-type', TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream');
      reply.header('content-length', stat.size);
      reply.header('cache-control', 'private, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
      return reply.send(await app.ctx.storage.get(key));
    },
  );
};
export default routes;
