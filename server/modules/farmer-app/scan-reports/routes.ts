import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DASHBOARD_PATHS } from '../../../../common/first-visit.js';
import { SCAN_REPORT_LIMITS } from '../../../../common/scan-reports.js';
import {
  detectionsQuerySchema,
  detectionsSchema,
  installRegistrationSchema,
  installTokenSchema,
  scanReportResultSchema,
  scanReportSchema,
} from '../../../../common/schemas/scan-reports.js';
import { clientKey } from '../../../platform/http/client-address.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { createScanReportsService } from './service.js';

/**
 * The scanner loop's way back: the farmer app registers its install once, then posts what each
 * scan found with the install's token (public, no session, no Origin header: the same-site
 * check lets it through and refuses browsers on other sites);
 * every signed-in role reads the Detections it adds up to; a daily job forgets old reports.
 */
const routes: FastifyPluginAsync = async (app) => {
  const service = createScanReportsService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  scheduleJob(app, {
    name: 'scan-report retention',
    everyMs: SCAN_REPORT_LIMITS.retentionEveryMs,
    firstAfterMs: 30_000,
    run: async () => {
      const removed = await service.purgeOld();
      if (removed > 0) app.log.info({ removed }, 'scan-report retention');
    },
    onClose: () => service.close(),
  });

  r.post(
    '/api/public/v1/installs',
    {
      config: { access: 'public' },
      schema: {
        tags: ['public'],
        summary:
          "The farmer app's registration, once per install: a random install id and the signed install token " +
          'its scan reports carry (limited per address per hour)',
        body: installRegistrationSchema,
        response: { 201: installTokenSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await service.registerInstall(clientKey(request.ip))),
  );

  r.post(
    '/api/public/v1/scan-reports',
    {
      config: { access: 'public' },
      bodyLimit: SCAN_REPORT_LIMITS.maxBodyBytes,
      schema: {
        tags: ['public'],
        summary:
          "The farmer app's report of one scan (label, confidence, model version, time, optional " +
          'municipality/barangay), sent with `Authorization: Bearer <installToken>`; idempotent by reportId; ' +
          'limited per install, per address and in all per minute (429 with Retry-After)',
        body: scanReportSchema,
        response: { 201: scanReportResultSchema, 200: scanReportResultSchema },
      },
    },
    async (request, reply) => {
      const result = await service.submit(request.body, request.headers.authorization, clientKey(request.ip));
      return reply.code(result.status === 'accepted' ? 201 : 200).send(result);
    },
  );

  r.get(
    DASHBOARD_PATHS.detections,
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['dashboard'],
        summary: 'Scanner detections: reports per disease per week (12 weeks), top diseases and municipalities (30 days)',
        querystring: detectionsQuerySchema,
        response: { 200: detectionsSchema },
      },
    },
    async (request) => service.detections(request.query.diseaseId),
  );

  r.get(
    `${DASHBOARD_PATHS.detections}.csv`,
    {
      compress: false, // streamed as written (app.ts compresses JSON only)
      config: { access: 'signedIn' },
      schema: {
        tags: ['dashboard'],
        summary: 'The 12 weeks of scan reports per week, disease and municipality as CSV',
        querystring: detectionsQuerySchema,
      },
    },
    async (request, reply) => {
      const csv = await service.detectionsCsv(request.query.diseaseId);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', 'attachment; filename="detections.csv"');
      return reply.send(csv);
    },
  );
};
export default routes;
