import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { trashItemParamsSchema, trashListQuerySchema, trashListSchema, trashParamsSchema } from '../../../../common/schemas/trash.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { createTrashService } from './service.js';

/** The trash of varieties, pests, diseases and accounts (super admin). */
const routes: FastifyPluginAsync = async (app) => {
  const service = createTrashService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['trash'];

  r.get(
    '/api/trash/:collection',
    {
      config: { access: 'trash.view' },
      schema: {
        tags,
        summary: 'Deleted records of a collection, most recently deleted first (20 a page)',
        params: trashParamsSchema,
        querystring: trashListQuerySchema,
        response: { 200: trashListSchema },
      },
    },
    async (request) => service.list(request.params.collection, request.query),
  );

  r.post(
    '/api/trash/:collection/:id/restore',
    {
      config: { access: 'trash.restore', review: { collection: (params) => String(params.collection), action: 'restore' } },
      schema: {
        tags,
        summary: 'Put a deleted record back as it was (409 when a live record has its name)',
        params: trashItemParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.restore(request.params.collection, request.params.id, requireAuth(request).actor);
      return reply.code(204).send(null);
    },
  );
};
export default routes;
