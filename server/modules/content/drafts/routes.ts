import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CATALOG_KIND_LIST } from '../../../../common/catalog.js';
import { draftInputSchema, draftSchema, varietyDraftInputSchema, varietyDraftSchema } from '../../../../common/schemas/drafts.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { createDraftsService } from './service.js';

const HOUR_MS = 3_600_000;

/**
 * The signed-in account's unsaved pest or disease: `/api/rice_pests/draft`, `/api/rice_diseases/draft`;
 * and its unsaved variety form: `/api/varieties/draft`.
 */
const routes: FastifyPluginAsync = async (app) => {
  const drafts = createDraftsService(app.ctx);
  scheduleJob(app, { name: 'draft retention', everyMs: 6 * HOUR_MS, runOnReady: true, run: () => drafts.removeExpired() });
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const kind of CATALOG_KIND_LIST) {
    const url = `/api/${kind.route}/draft`;
    const tags = [kind.route];
    r.get(
      url,
      {
        config: { access: 'content.create' },
        schema: { tags, summary: `Your unsaved ${kind.texts.noun} (the add form), or null`, response: { 200: draftSchema.nullable() } },
      },
      async (request) => drafts.get(requireAuth(request).user.id, kind),
    );

    r.put(
      url,
      {
        config: { access: 'content.create' },
        schema: {
          tags,
          summary: `Keep the add form as your draft: its fields and the chosen photos in order`,
          body: draftInputSchema,
          response: { 200: z.object({ uploaded: z.number(), total: z.number() }) },
        },
      },
      async (request) => drafts.save(requireAuth(request).user.id, kind, request.body),
    );

    r.delete(
      url,
      {
        config: { access: 'content.create' },
        schema: { tags, summary: 'Drop your draft', response: { 204: z.null() } },
      },
      async (request, reply) => {
        await drafts.remove(requireAuth(request).user.id, kind);
        return reply.code(204).send(null);
      },
    );
  }

  const varietyUrl = '/api/varieties/draft';
  const tags = ['varieties'];
  r.get(
    varietyUrl,
    {
      config: { access: 'content.create' },
      schema: {
        tags,
        summary: 'Your unsaved variety form (a new record or an edit), or null',
        response: { 200: varietyDraftSchema.nullable() },
      },
    },
    async (request) => drafts.getVariety(requireAuth(request).user.id),
  );
  r.put(
    varietyUrl,
    {
      config: { access: 'content.create' },
      schema: { tags, summary: 'Keep the variety form as your draft', body: varietyDraftInputSchema, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await drafts.saveVariety(requireAuth(request).user.id, request.body);
      return reply.code(204).send(null);
    },
  );
  r.delete(
    varietyUrl,
    { config: { access: 'content.create' }, schema: { tags, summary: 'Drop your variety draft', response: { 204: z.null() } } },
    async (request, reply) => {
      await drafts.removeVariety(requireAuth(request).user.id);
      return reply.code(204).send(null);
    },
  );
};
export default routes;
