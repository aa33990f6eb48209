import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  historyCountSchema,
  historyDetailSchema,
  historyFiltersSchema,
  historyIdParamsSchema,
  historyListQuerySchema,
  historyPageSchema,
  historyUsersSchema,
} from '../../../../common/schemas/history.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { createHistoryService } from './service.js';

/**
 * History logs: read-only. No route changes or deletes an entry (the audit table is
 * append-only). Every route applies the caller's scope: a super admin sees every entry, an
 * ADMIN only their own and never LOGIN, RESTRICT or UNRESTRICT.
 */
const routes: FastifyPluginAsync = async (app) => {
  const service = createHistoryService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/history',
    {
      config: { access: 'history.view' },
      schema: {
        tags: ['history'],
        summary: 'History entries, newest first, by cursor',
        querystring: historyListQuerySchema,
        response: { 200: historyPageSchema },
      },
    },
    async (request) => service.page(requireAuth(request), request.query),
  );

  r.get(
    '/api/history/count',
    {
      config: { access: 'history.view' },
      schema: {
        tags: ['history'],
        summary: 'How many entries match (exact up to 10,000, else an estimate)',
        querystring: historyFiltersSchema,
        response: { 200: historyCountSchema },
      },
    },
    async (request) => service.count(requireAuth(request), request.query),
  );

  r.get(
    '/api/history/export.csv',
    {
      compress: false, // streamed as written (app.ts compresses JSON only)
      config: { access: 'history.view' },
      schema: { tags: ['history'], summary: 'The matching entries as CSV (streamed)', querystring: historyFiltersSchema },
    },
    async (request, reply) => {
      const stream = service.exportCsv(requireAuth(request), request.query);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${service.exportFileName()}"`);
      reply.header('cache-control', 'no-store');
      return reply.send(stream);
    },
  );

  r.get(
    '/api/history/users',
    {
      config: { access: 'history.viewAll' },
      schema: { tags: ['history'], summary: 'The people the user filter offers', response: { 200: historyUsersSchema } },
    },
    async () => ({ items: await service.users() }),
  );

  r.get(
    '/api/history/:id',
    {
      config: { access: 'history.view' },
      schema: {
        tags: ['history'],
        summary: 'One entry with its changes',
        params: historyIdParamsSchema,
        response: { 200: historyDetailSchema },
      },
    },
    async (request) => service.detail(requireAuth(request), request.params.id),
  );
};
export default routes;
