import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DATASET_TEXTS } from '../../../../common/dataset.js';
import { z } from 'zod';
import { datasetQuerySchema } from '../../../../common/schemas/dataset.js';
import { datasetHealthSchema, photoIdParams, removePhotoSchema } from '../../../../common/schemas/dataset.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { createPhotoRemoval } from './removal.js';
import { createDatasetService } from './service.js';

/** Dataset health of the disease photos (the scanner's training set): super admins, as the training set itself. */
const routes: FastifyPluginAsync = async (app) => {
  const service = createDatasetService(app.ctx);
  const removal = createPhotoRemoval(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: 'trainingData.export' } as const;
  const tags = ['dataset'];

  r.get(
    '/api/dataset-health',
    {
      config,
      schema: {
        tags,
        summary:
          'Photos per disease, groups of copies (and copies across diseases), photos with quality flags; ' +
          'pending=true adds the photos of disease edits waiting for review',
        querystring: datasetQuerySchema,
        response: { 200: datasetHealthSchema },
      },
    },
    async (request) => service.health(request.query.pending === 'true'),
  );

  r.post(
    '/api/dataset-health/photos/:imageId/remove',
    {
      config: { ...config, review: { collection: 'rice_local_diseases', action: 'remove_photo' } },
      schema: {
        tags,
        summary:
          "Take a photo out of its disease (kept, out of the training set, can be put back); where the diseases' changes need review, a pending change (202)",
        params: photoIdParams,
        body: removePhotoSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await removal.remove(request.body.diseaseId, request.params.imageId, requireAuth(request).actor);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/api/dataset-health/photos/:imageId/put-back',
    {
      config: { ...config, review: { collection: 'rice_local_diseases', action: 'put_back_photo' } },
      schema: {
        tags,
        summary:
          "Put a removed photo back into its disease, after its photos; where the diseases' changes need review, a pending change (202)",
        params: photoIdParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await removal.putBack(request.params.imageId, requireAuth(request).actor);
      return reply.code(204).send(null);
    },
  );

  r.get(
    '/api/dataset-health/report.csv',
    {
      compress: false, // streamed as written (app.ts compresses JSON only)
      config,
      schema: { tags, summary: 'Every group of copies and every flagged photo, one photo a line', querystring: datasetQuerySchema },
    },
    async (request, reply) => {
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${DATASET_TEXTS.csvFile}"`);
      reply.header('cache-control', 'no-store');
      return reply.send(await service.csv(request.query.pending === 'true'));
    },
  );
};
export default routes;
