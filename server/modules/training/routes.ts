import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createTrainingService } from './service.js';

const routes: FastifyPluginAsync = async (app) => {
  const service = createTrainingService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/api/training-sets/diseases', {
    config: { access: 'trainingData.export' },
    schema: {
      tags: ['training'],
      summary: "Original disease photos as a streamed ZIP (one folder per disease, manifest.csv); super admin only",
      querystring: z.object({ diseaseId: z.string().max(100).optional() }),
    },
  }, async (request, reply) => {
    const archive = await service.diseaseArchive(request.query.diseaseId);
    reply.header('content-type', 'application/zip');
    reply.header('content-disposition', `attachment; filename="${archive.fileName}"`);
    reply.header('cache-control', 'no-store');
    reply.header('x-photo-count', String(archive.photos));
    if (archive.size !== null) reply.header('content-length', archive.size);
    return reply.send(archive.stream);
  });
};
export default routes;
