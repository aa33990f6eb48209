import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contentWeeklySchema, dashboardCountsSchema, recentActivitiesSchema } from '../../../../common/schemas/dashboard.js';
import { DASHBOARD_PATHS } from '../../../../common/first-visit.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { createDashboardService } from './service.js';

const routes: FastifyPluginAsync = async (app) => {
  const service = createDashboardService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    DASHBOARD_PATHS.counts,
    {
      config: { access: 'dashboard.view' },
      schema: { tags: ['dashboard'], summary: 'The four overview counts', response: { 200: dashboardCountsSchema } },
    },
    async () => service.counts(),
  );

  r.get(
    DASHBOARD_PATHS.contentWeekly,
    {
      config: { access: 'dashboard.view' },
      schema: {
        tags: ['dashboard'],
        summary: 'Varieties, pests and diseases added and changed per week (12 Manila weeks, from the audit log)',
        response: { 200: contentWeeklySchema },
      },
    },
    async () => service.contentWeekly(),
  );

  r.get(
    DASHBOARD_PATHS.recentActivities,
    {
      config: { access: 'dashboard.view' },
      schema: { tags: ['dashboard'], summary: "The signed-in user's latest activities", response: { 200: recentActivitiesSchema } },
    },
    async (request) => ({ items: await service.recentActivities(requireAuth(request)) }),
  );
};
export default routes;
