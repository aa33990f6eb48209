import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MAINTENANCE_LIMITS } from '../../../../common/maintenance.js';
import {
  addOptionSchema,
  docParamsSchema,
  listParamsSchema,
  maintenanceDocumentSchema,
  maintenanceUsageSchema,
  optionListsSchema,
  removeOptionQuerySchema,
  saveListsSchema,
} from '../../../../common/schemas/maintenance.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { ensureYearRollover, getOptionLists } from './option-lists.js';
import { createMaintenanceService } from './service.js';

const routes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = createMaintenanceService(app.ctx);

  // Any signed-in role reads the option lists: the variety and settings forms use them.
  r.get(
    '/api/maintenance/options',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['maintenance'], summary: 'The option lists used by forms', response: { 200: optionListsSchema } },
    },
    async () => getOptionLists(app.ctx.db),
  );

  // File maintenance itself is for the super admin only.
  const manage = { access: 'maintenance.manage' as const };
  // The farmer app's option lists wait for review when the department asks (server/modules/publishing/review).
  const reviewed = { ...manage, review: { collection: 'maintenance' as const, action: 'save' as const } };

  r.get(
    '/api/maintenance/documents/:docId',
    {
      config: manage,
      schema: {
        tags: ['maintenance'],
        summary: 'One option-list document',
        params: docParamsSchema,
        response: { 200: maintenanceDocumentSchema },
      },
    },
    async (request) => service.document(request.params.docId),
  );

  r.get(
    '/api/maintenance/documents/:docId/usage',
    {
      config: manage,
      schema: {
        tags: ['maintenance'],
        summary: 'How many live records use each option',
        params: docParamsSchema,
        response: { 200: maintenanceUsageSchema },
      },
    },
    async (request) => service.usage(request.params.docId),
  );

  r.post(
    '/api/maintenance/documents/:docId/lists/:list',
    {
      config: reviewed,
      schema: {
        tags: ['maintenance'],
        summary: 'Add one option to a list',
        params: listParamsSchema,
        body: addOptionSchema,
        response: { 200: maintenanceDocumentSchema },
      },
    },
    async (request) => {
      const { params, body } = request;
      return (await service.add(requireAuth(request).actor, params.docId, params.list, body.value)).document;
    },
  );

  r.delete(
    '/api/maintenance/documents/:docId/lists/:list',
    {
      config: reviewed,
      schema: {
        tags: ['maintenance'],
        summary: 'Remove one option from a list',
        params: listParamsSchema,
        querystring: removeOptionQuerySchema,
        response: { 200: maintenanceDocumentSchema },
      },
    },
    async (request) => {
      const { params, query } = request;
      return (await service.remove(requireAuth(request).actor, params.docId, params.list, query.value)).document;
    },
  );

  r.put(
    '/api/maintenance/documents/:docId',
    {
      config: reviewed,
      schema: {
        tags: ['maintenance'],
        summary: 'Save Changes: write whole lists (trimmed, deduplicated)',
        params: docParamsSchema,
        body: saveListsSchema,
        response: { 200: maintenanceDocumentSchema },
      },
    },
    async (request) => (await service.save(requireAuth(request).actor, request.params.docId, request.body)).document,
  );

  // The year-release list gains the new year on its own, even with nobody on the screen.
  scheduleJob(app, {
    name: 'year-release rollover',
    everyMs: MAINTENANCE_LIMITS.yearCheckMs,
    run: () => ensureYearRollover(app.ctx.db, app.ctx.events),
  });
};
export default routes;
