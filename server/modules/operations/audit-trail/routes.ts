import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUDIT_TRAIL_LIMITS } from '../../../../common/audit-trail.js';
import {
  archiveFileParamsSchema,
  auditAnchorSchema,
  auditTrailStatusSchema,
  auditVerificationSchema,
} from '../../../../common/schemas/audit-trail.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { createAuditTrailService } from './service.js';

/**
 * The audit trail's integrity, for super admins: status (head, last verification, newest
 * anchor, archives), `Verify now`, `Write anchor now`, and an archive read back as CSV. The
 * daily run (anchor, retention, verification) is started here, claimed so one instance does it.
 */
const routes: FastifyPluginAsync = async (app) => {
  const service = createAuditTrailService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const access = { access: 'history.verify' } as const;

  r.get(
    '/api/audit-trail',
    {
      config: access,
      schema: {
        tags: ['history'],
        summary: 'Chain head, last verification, newest anchor and archives',
        response: { 200: auditTrailStatusSchema },
      },
    },
    async () => service.status(),
  );

  r.post(
    '/api/audit-trail/verifications',
    {
      config: access,
      schema: {
        tags: ['history'],
        summary: 'Verify now: starts a verification in the background',
        response: { 202: auditVerificationSchema },
      },
    },
    async (request, reply) => {
      const { verification } = await service.startVerification(requireAuth(request).actor);
      return reply.code(202).send(verification);
    },
  );

  r.post(
    '/api/audit-trail/anchors',
    {
      config: access,
      schema: {
        tags: ['history'],
        summary: 'Write anchor now: the head to DATA_DIR/audit-anchors (and email)',
        response: { 201: auditAnchorSchema.extend({ emailed: z.number().int() }) },
      },
    },
    async (_request, reply) => {
      const anchor = await service.anchor();
      return reply
        .code(201)
        .send({ index: anchor.index, hash: anchor.hash, count: anchor.count, at: anchor.at, file: anchor.file, emailed: anchor.emailed });
    },
  );

  r.get(
    '/api/audit-trail/archives/:file',
    {
      compress: false, // streamed as written (app.ts compresses JSON only)
      config: access,
      schema: { tags: ['history'], summary: 'An archive of removed entries as the History export CSV', params: archiveFileParamsSchema },
    },
    async (request, reply) => {
      const stream = await service.archiveCsv(request.params.file);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${request.params.file.replace(/\.jsonl\.gz$/, '.csv')}"`);
      reply.header('cache-control', 'no-store');
      return reply.send(stream);
    },
  );

  scheduleJob(app, {
    name: 'daily audit trail run',
    everyMs: AUDIT_TRAIL_LIMITS.dailyCheckMs,
    firstAfterMs: 30_000,
    run: () => service.daily(),
    onClose: () => service.idle(),
  });
};
export default routes;
