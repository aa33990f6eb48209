import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { trainingSetQuerySchema } from '../../../../common/schemas/training.js';
import { createTrainingService } from './service.js';

const routes: FastifyPluginAsync = async (app) => {
  const service = createTrainingService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/training-sets/diseases',
    {
      compress: false, // streamed as written (app.ts compresses JSON only)
      config: { access: 'trainingData.export' },
      schema: {
        tags: ['training'],
        summary:
          'Original disease photos as a streamed ZIP in image-folder layout (train/validation/test/<label>/, ' +
          'labels.txt, label_map.json, metadata.csv, README.md; layout=flat: one folder per label); super ' +
          'admin only',
        querystring: trainingSetQuerySchema,
      },
    },
    async (request, reply) => {
      const archive = await service.diseaseArchive(request.query);
      reply.header('content-type', 'application/zip');
      reply.header('content-disposition', `attachment; filename="${archive.fileName}"`);
      reply.header('cache-control', 'no-store');
      reply.header('x-photo-count', String(archive.photos));
      if (archive.size !== null) reply.header('content-length', archive.size);
      return reply.send(archive.stream);
    },
  );
};
export default routes;
