import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionListsSchema } from '../../../common/schemas/maintenance.js';
import { getOptionLists } from './service.js';

const routes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Any signed-in role reads the option lists: the variety and settings forms use them.
  r.get('/api/maintenance/options', {
    schema: { tags: ['maintenance'], summary: 'The option lists used by forms', response: { 200: optionListsSchema } },
  }, async () => getOptionLists(app.ctx.db));
};
export default routes;
