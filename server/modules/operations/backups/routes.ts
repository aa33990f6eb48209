import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { backupStatusSchema } from '../../../../common/schemas/backups.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { createBackupsService } from './service.js';

/** How often an instance looks whether a scheduled backup is due. */
const CHECK_EVERY_MS = 10 * 60_000;

const routes: FastifyPluginAsync = async (app) => {
  const service = createBackupsService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Not on ready: a backup may take minutes, and the server's start must not wait for it.
  scheduleJob(app, { name: 'scheduled backup', everyMs: CHECK_EVERY_MS, firstAfterMs: 60_000, run: () => service.runDue() });

  r.get(
    '/api/backups/status',
    {
      config: { access: 'maintenance.manage' },
      schema: {
        tags: ['backups'],
        summary: 'The last good scheduled backup, its age, and the last failure',
        response: { 200: backupStatusSchema },
      },
    },
    async () => service.status(),
  );
};
export default routes;
