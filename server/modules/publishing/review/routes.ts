import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  approveInputSchema,
  changeVersionInputSchema,
  pendingChangeDetailSchema,
  publishInputSchema,
  rejectInputSchema,
  reviewCollectionSchema,
  reviewCountSchema,
  reviewListQuerySchema,
  reviewListSchema,
  reviewNextQuerySchema,
  reviewNextSchema,
  reviewSettingInputSchema,
  reviewSettingsSchema,
  scheduleInputSchema,
} from '../../../../common/schemas/review.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { createReviewDecisions } from './decisions.js';
import { createReviewGate } from './gate.js';
import { publishDue } from './publishing.js';
import { createReviewService } from './service.js';

const idParams = z.object({ id: z.string().min(1).max(64) });

/** Review before publishing: the settings, the queue, a change's page and its decisions. */
const routes: FastifyPluginAsync = async (app) => {
  const service = createReviewService(app.ctx);
  const decisions = createReviewDecisions(app.ctx, service.load);
  app.reviewGate.current = createReviewGate(app.ctx, service);
  app.addHook('onClose', async () => {
    app.reviewGate.current = null;
  });
  // One instance a check period publishes what is due; the change's state move keeps a publish single against the reviewers' own.
  scheduleJob(app, {
    name: 'scheduled publishing',
    everyMs: app.ctx.config.reviewScheduleCheckMs,
    runOnReady: true,
    onePerPeriod: true,
    run: () => publishDue(app.ctx),
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['review'];
  const detail = (id: string, request: Parameters<typeof requireAuth>[0]) => service.detail(id, requireAuth(request));

  r.get(
    '/api/review/settings',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: "Which collections' changes need review before the farmer app sees them",
        response: { 200: reviewSettingsSchema },
      },
    },
    async () => service.settings(),
  );

  r.put(
    '/api/review/settings/:collection',
    {
      config: { access: 'review.settings' },
      schema: {
        tags,
        summary: 'Turn review on or off for one collection (audited)',
        params: z.object({ collection: reviewCollectionSchema }),
        body: reviewSettingInputSchema,
        response: { 200: reviewSettingsSchema },
      },
    },
    async (request) => service.setSetting(request.params.collection, request.body.enabled, requireAuth(request).actor),
  );

  r.get(
    '/api/review/changes',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'Pending changes, oldest first (open: waiting, approved, sent back)',
        querystring: reviewListQuerySchema,
        response: { 200: reviewListSchema },
      },
    },
    async (request) => service.list(request.query, requireAuth(request)),
  );

  r.get(
    '/api/review/count',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'How many changes wait for review, for this account, and came back to it',
        response: { 200: reviewCountSchema },
      },
    },
    async (request) => service.count(requireAuth(request)),
  );

  r.get(
    '/api/review/next',
    {
      config: { access: 'review.approve' },
      schema: {
        tags,
        summary: 'The next change waiting for this reviewer after the one given (never their own), or null',
        querystring: reviewNextQuerySchema,
        response: { 200: reviewNextSchema },
      },
    },
    async (request) => service.next(request.query.after, requireAuth(request)),
  );

  r.get(
    '/api/review/changes/:id',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'One change: the published and proposed states compared, the app preview, what this account may do',
        params: idParams,
        response: { 200: pendingChangeDetailSchema },
      },
    },
    async (request) => detail(request.params.id, request),
  );

  r.post(
    '/api/review/changes/:id/approve',
    {
      config: { access: 'review.approve' },
      schema: {
        tags,
        summary: "Approve (never one's own change): published now, or at publishAt",
        params: idParams,
        body: approveInputSchema,
        response: { 200: pendingChangeDetailSchema },
      },
    },
    async (request) => {
      await decisions.approve(request.params.id, request.body, requireAuth(request));
      return detail(request.params.id, request);
    },
  );

  r.post(
    '/api/review/changes/:id/reject',
    {
      config: { access: 'review.approve' },
      schema: {
        tags,
        summary: 'Send the change back to its author with a comment',
        params: idParams,
        body: rejectInputSchema,
        response: { 200: pendingChangeDetailSchema },
      },
    },
    async (request) => {
      await decisions.reject(request.params.id, request.body, requireAuth(request));
      return detail(request.params.id, request);
    },
  );

  r.post(
    '/api/review/changes/:id/publish',
    {
      config: { access: 'content.update' },
      schema: {
        tags,
        summary: 'Publish an approved change now; a change not approved only by a super admin with a reason (break glass)',
        params: idParams,
        body: publishInputSchema,
        response: { 200: pendingChangeDetailSchema },
      },
    },
    async (request) => {
      await decisions.publish(request.params.id, request.body, requireAuth(request));
      return detail(request.params.id, request);
    },
  );

  r.post(
    '/api/review/changes/:id/schedule',
    {
      config: { access: 'review.approve' },
      schema: {
        tags,
        summary: "Set or cancel (null) an approved change's publish time",
        params: idParams,
        body: scheduleInputSchema,
        response: { 200: pendingChangeDetailSchema },
      },
    },
    async (request) => {
      await decisions.schedule(request.params.id, request.body, requireAuth(request));
      return detail(request.params.id, request);
    },
  );

  r.post(
    '/api/review/changes/:id/withdraw',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'The author takes the change back',
        params: idParams,
        body: changeVersionInputSchema,
        response: { 200: pendingChangeDetailSchema },
      },
    },
    async (request) => {
      await decisions.withdraw(request.params.id, request.body, requireAuth(request));
      return detail(request.params.id, request);
    },
  );

  r.post(
    '/api/review/changes/:id/rebase',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'Base the change on the record as published now; it waits for review again',
        params: idParams,
        body: changeVersionInputSchema,
        response: { 200: pendingChangeDetailSchema },
      },
    },
    async (request) => {
      await decisions.rebase(request.params.id, request.body, requireAuth(request));
      return detail(request.params.id, request);
    },
  );
};
export default routes;
