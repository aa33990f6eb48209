import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MODEL_LIMITS, MODELS_PATHS } from '../../../../common/models.js';
import {
  cellPhotosSchema,
  cellQuerySchema,
  endPilotSchema,
  evaluationParams,
  evaluationReportSchema,
  evaluationRequestSchema,
  modelIdParams,
  modelInspectionSchema,
  modelMappingSchema,
  modelSettingsSchema,
  modelsOverviewSchema,
  publishSchema,
  rollbackSchema,
  scannerModelSchema,
} from '../../../../common/schemas/models.js';
import { publicModelFileParams, publicModelQuerySchema, publicModelsSchema } from '../../../../common/schemas/public-models.js';
import { TRAINING_SET } from '../../../../common/catalog.js';
import { z } from '../../../../common/schemas/zod.js';
import { contentEtag, etagMatches } from '../../../platform/http/etag.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { createInstallTokens } from '../../../platform/identity/install-tokens.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { createEvaluationReports } from './evaluation/report.js';
import { evaluationRunner } from './evaluation/runner.js';
import { createModelPublishing } from './publishing.js';
import { readParts } from './upload-parts.js';
import { createModelsService } from './service.js';

const ACCESS = { access: 'scannerModels.manage' as const };
const tags = ['scanner models'];

/**
 * The byte range a Range header asks for, per RFC 9110: one `bytes` range (first-last, first-,
 * or -suffix). Anything else (another unit, several ranges, a malformed header) is ignored and the
 * whole file is sent; 'unsatisfiable' when the range lies outside the file.
 */
function rangeOf(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/i.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Number(m[2]);
  if (m[2] !== '' && end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/**
 * Serves a stored model file with its sha256 as ETag (304 on If-None-Match) and byte ranges
 * (206, or 416 outside the file), so a phone on a weak signal resumes a download instead of
 * starting over; If-Range with another tag gets the whole file.
 */
async function sendModelFile(
  request: FastifyRequest,
  reply: FastifyReply,
  app: Parameters<FastifyPluginAsync>[0],
  row: { fileKey: string; sha256: string; size: number; version: string },
) {
  const etag = `"${row.sha256}"`;
  const size = Number(row.size);
  if (etagMatches(request.headers['if-none-match'], etag)) {
    reply.header('etag', etag);
    return reply.code(304).send();
  }
  const ifRange = request.headers['if-range'];
  const range = !ifRange || String(ifRange).trim() === etag ? rangeOf(request.headers.range, size) : null;
  if (range === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    return reply.code(416).send();
  }
  // The file is opened before any header says what it is, so an outage answers as itself.
  const body = await app.ctx.storage.get(row.fileKey, range ?? undefined);
  reply.header('etag', etag);
  reply.header('accept-ranges', 'bytes');
  reply.header('cache-control', 'private, no-cache');
  reply.header('content-type', 'application/octet-stream');
  reply.header('content-disposition', `attachment; filename="${row.version}.tflite"`);
  if (range) {
    reply.header('content-range', `bytes ${range.start}-${range.end}/${size}`);
    reply.header('content-length', String(range.end - range.start + 1));
    return reply.code(206).send(body);
  }
  reply.header('content-length', String(size));
  return reply.send(body);
}

/**
 * The scanner models: super admins upload, evaluate, publish and roll back; the farmer app
 * asks which model its install runs and downloads it.
 */
const routes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, { limits: { fileSize: MODEL_LIMITS.maxBytes, files: 2, fields: 2, parts: 4, fieldSize: 256 * 1024 } });
  const runner = evaluationRunner(app.ctx);
  const service = createModelsService(app.ctx, () => {
    void runner.kick();
  });
  const reports = createEvaluationReports(app.ctx);
  const publishing = createModelPublishing(app.ctx);
  const installs = createInstallTokens(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();

  scheduleJob(app, {
    name: 'model evaluations',
    everyMs: 5_000,
    firstAfterMs: 1_000,
    run: () => runner.kick(),
    onClose: () => runner.close(),
  });

  r.get(
    MODELS_PATHS.list,
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Every uploaded scanner model with its evaluations and channels, and the publishing history',
        response: { 200: modelsOverviewSchema },
      },
    },
    async () => service.overview(),
  );

  r.post(
    MODELS_PATHS.inspect,
    {
      config: ACCESS,
      schema: {
        tags,
        summary:
          'Reads a .tflite (multipart: "meta" JSON {stage, labels?}, optional "labels" file, then "model") and suggests what each label means; stores nothing',
        response: { 200: modelInspectionSchema },
      },
    },
    async (request) => service.inspect(await readParts(request)),
  );

  r.post(
    MODELS_PATHS.list,
    {
      config: ACCESS,
      schema: {
        tags,
        summary:
          'Uploads a model (multipart: "meta" JSON with stage, pixel contract, thresholds, labels, mapping and ' +
          'note; optional "labels" file; then "model"): checked, stored with its sha256, audited',
        response: { 201: scannerModelSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await service.upload(await readParts(request), requireAuth(request).actor)),
  );

  r.get(
    `${MODELS_PATHS.list}/:id`,
    {
      config: ACCESS,
      schema: { tags, summary: 'One scanner model', params: modelIdParams, response: { 200: scannerModelSchema } },
    },
    async (request) => service.detail(request.params.id),
  );

  r.get(
    `${MODELS_PATHS.list}/:id/file`,
    {
      config: ACCESS,
      schema: { tags, summary: 'The model file as uploaded', params: modelIdParams },
    },
    async (request, reply) => sendModelFile(request, reply, app, await service.file(request.params.id)),
  );

  r.put(
    `${MODELS_PATHS.list}/:id/mapping`,
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'What each label means (a record by id, or for a plant check a verdict); optimistic version check',
        params: modelIdParams,
        body: modelMappingSchema,
        response: { 200: scannerModelSchema },
      },
    },
    async (request) => service.updateMapping(request.params.id, request.body.version, request.body.mapping, requireAuth(request).actor),
  );

  r.put(
    `${MODELS_PATHS.list}/:id/settings`,
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'The pixel contract, thresholds and note; optimistic version check',
        params: modelIdParams,
        body: modelSettingsSchema,
        response: { 200: scannerModelSchema },
      },
    },
    async (request) => service.updateSettings(request.params.id, request.body, requireAuth(request).actor),
  );

  r.post(
    `${MODELS_PATHS.list}/:id/evaluations`,
    {
      config: ACCESS,
      schema: {
        tags,
        summary:
          "Queues an evaluation on a split of the current training set (test by default: the ZIP's clusters " +
          'and seed), on an evaluation set (evaluationSetId), or on exactly the photos of an earlier one (sameAs); it runs in the background',
        params: modelIdParams,
        body: evaluationRequestSchema,
        response: { 202: scannerModelSchema.shape.evaluations.element },
      },
    },
    async (request, reply) =>
      reply.code(202).send(
        await service.requestEvaluation(
          request.params.id,
          {
            split: request.body.split,
            seed: request.body.seed ?? TRAINING_SET.defaultSeed,
            sameAs: request.body.sameAs,
            evaluationSetId: request.body.evaluationSetId,
          },
          requireAuth(request).actor,
        ),
      ),
  );

  r.post(
    `${MODELS_PATHS.list}/:id/evaluations/:evaluationId/cancel`,
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Cancels a waiting or running evaluation (a running one stops after its current batch)',
        params: evaluationParams,
        response: { 200: scannerModelSchema.shape.evaluations.element },
      },
    },
    async (request) => service.cancelEvaluation(request.params.id, request.params.evaluationId, requireAuth(request).actor),
  );

  r.get(
    `${MODELS_PATHS.list}/:id/evaluations/:evaluationId`,
    {
      config: ACCESS,
      schema: {
        tags,
        summary: "An evaluation's report: accuracy, macro-F1, per class, confusion matrix, coverage curve, comparison with the live model",
        params: evaluationParams,
        response: { 200: evaluationReportSchema },
      },
    },
    async (request) => reports.report(request.params.id, request.params.evaluationId),
  );

  r.get(
    `${MODELS_PATHS.list}/:id/evaluations/:evaluationId/photos`,
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'The photos of one confusion-matrix cell (actual, predicted), or those whose verdict changed against the live model',
        params: evaluationParams,
        querystring: cellQuerySchema,
        response: { 200: cellPhotosSchema },
      },
    },
    async (request) => reports.photos(request.params.id, request.params.evaluationId, request.query),
  );

  r.get(
    `${MODELS_PATHS.list}/:id/evaluations/:evaluationId/predictions.csv`,
    {
      config: ACCESS,
      schema: { tags, summary: "Every photo's prediction (top 3) as CSV", params: evaluationParams },
    },
    async (request, reply) => {
      const { text, fileName } = await reports.csv(request.params.id, request.params.evaluationId);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${fileName}"`);
      return reply.send(text);
    },
  );

  r.post(
    `${MODELS_PATHS.list}/:id/publish`,
    {
      config: ACCESS,
      schema: {
        tags,
        summary:
          'Publishes to live or to the pilot (a share of installs); refused with 409 and the failed checks unless overrideReason is given',
        params: modelIdParams,
        body: publishSchema,
        response: { 200: modelsOverviewSchema },
      },
    },
    async (request) => {
      await publishing.publish(request.params.id, request.body, requireAuth(request).actor);
      return service.overview();
    },
  );

  r.post(
    `${MODELS_PATHS.list}/rollback`,
    {
      config: ACCESS,
      schema: {
        tags,
        summary: 'Makes the previous live model of a stage live again',
        body: rollbackSchema,
        response: { 200: modelsOverviewSchema },
      },
    },
    async (request) => {
      await publishing.rollback(request.body.stage, request.body.note, requireAuth(request).actor);
      return service.overview();
    },
  );

  r.post(
    `${MODELS_PATHS.list}/end-pilot`,
    {
      config: ACCESS,
      schema: {
        tags,
        summary: "Ends a stage's pilot: every install gets the live model",
        body: endPilotSchema,
        response: { 200: modelsOverviewSchema },
      },
    },
    async (request) => {
      await publishing.endPilot(request.body.stage, requireAuth(request).actor);
      return service.overview();
    },
  );

  r.get(
    MODELS_PATHS.publicCurrent,
    {
      config: { access: 'public' as const, rateLimit: { max: app.ctx.config.publicRateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['public'],
        summary:
          'The models this install runs (with `Authorization: Bearer <installToken>`): per stage its version, ' +
          'sha256, size, download URL, labels with record ids, names and local names, pixel contract and ' +
          'thresholds; ETag / If-None-Match',
        querystring: publicModelQuerySchema,
        response: { 200: publicModelsSchema, 304: z.null() },
      },
    },
    async (request, reply) => {
      const installId = await installs.installOf(request.headers.authorization);
      const all = await publishing.forInstall(installId);
      const body = request.query.stage ? { disease: null, plant: null, [request.query.stage]: all[request.query.stage] } : all;
      const etag = contentEtag(body);
      reply.header('etag', etag);
      reply.header('cache-control', 'private, no-cache');
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
      return body;
    },
  );

  r.get(
    MODELS_PATHS.publicFile,
    {
      config: { access: 'public' as const, rateLimit: { max: app.ctx.config.publicRateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['public'],
        summary: 'A published model file (install token): ETag is its sha256; Range requests resume a download (206)',
        params: publicModelFileParams,
      },
    },
    async (request, reply) => {
      const installId = await installs.installOf(request.headers.authorization);
      return sendModelFile(request, reply, app, await publishing.publishedFile(request.params.version, installId));
    },
  );
};

export default routes;
