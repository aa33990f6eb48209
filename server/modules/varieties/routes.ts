import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  varietyIdParamsSchema, varietyInputSchema, varietyListQuerySchema, varietyListSchema, varietySchema, varietyUpdateSchema,
  type VarietyList,
} from '../../../common/schemas/varieties.js';
import { requireAuth } from '../../platform/policy.js';
import { createVarietiesService } from './service.js';

/** Rice varieties (SPEC.md section 2): any signed-in role views, adds, edits and deletes. */
const routes: FastifyPluginAsync = async (app) => {
  const service = createVarietiesService(app.ctx);
  app.addHook('onClose', async () => service.close());
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['varieties'];

  // A cached page is the same object until the next write: its JSON is made once, too.
  const json = new WeakMap<VarietyList, string>();
  r.get('/api/varieties', {
    config: { access: 'content.view' },
    schema: { tags, summary: 'Live varieties, searched and paged (20 a page)', querystring: varietyListQuerySchema, response: { 200: varietyListSchema } },
  }, async (request, reply) => {
    const list = await service.list(request.query.search, request.query.page);
    let body = json.get(list);
    if (body === undefined) {
      body = JSON.stringify(varietyListSchema.parse(list));
      json.set(list, body);
    }
    return reply.type('application/json; charset=utf-8').send(body as never);
  });

  r.get('/api/varieties/:id', {
    config: { access: 'content.view' },
    schema: { tags, summary: 'One live variety', params: varietyIdParamsSchema, response: { 200: varietySchema } },
  }, async (request) => service.get(request.params.id));

  r.post('/api/varieties', {
    config: { access: 'content.create' },
    schema: { tags, summary: 'Add a variety', body: varietyInputSchema, response: { 201: varietySchema } },
  }, async (request, reply) => {
    const created = await service.create(request.body, requireAuth(request).actor);
    return reply.code(201).send(created);
  });

  r.put('/api/varieties/:id', {
    config: { access: 'content.update' },
    schema: { tags, summary: 'Save a variety over the version the form edited (409 when newer)', params: varietyIdParamsSchema, body: varietyUpdateSchema, response: { 200: varietySchema } },
  }, async (request) => {
    const { version, ...input } = request.body;
    return service.update(request.params.id, input, version, requireAuth(request).actor);
  });

  r.delete('/api/varieties/:id', {
    config: { access: 'content.delete' },
    schema: { tags, summary: 'Soft-delete a variety', params: varietyIdParamsSchema, response: { 204: z.null() } },
  }, async (request, reply) => {
    await service.remove(request.params.id, requireAuth(request).actor);
    return reply.code(204).send(null);
  });
};
export default routes;
