import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  emailLinkQuerySchema,
  emailLinkResetSchema,
  emailLinkStatusSchema,
  identifyResultSchema,
  invitationAcceptSchema,
  invitationStatusSchema,
  identifySchema,
  okSchema,
  recoveryResetSchema,
  securityQuestionsSchema,
  verifyResultSchema,
  verifySchema,
  emailLinkQuerySchema as invitationQuerySchema,
} from '../../../../common/schemas/recovery.js';
import { RECOVERY_LIMITS } from '../../../../common/profile.js';
import { findSessionByToken, isSessionValid, SESSION_COOKIE } from '../../../platform/identity/sessions.js';
import { recoveryServiceFor, type RequestMeta } from './service.js';

/**
 * Forgot password (public: nobody is signed in), the email-link reset page's and the invitation page's calls.
 * Every route is also limited per IP by @fastify/rate-limit.
 */
const routes: FastifyPluginAsync = async (app) => {
  const service = recoveryServiceFor(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: 'public' as const, rateLimit: { max: RECOVERY_LIMITS.requestsPerMinutePerIp, timeWindow: 60_000 } };

  /** The requester's own live session for that account, if any: a reset keeps it and ends the others. */
  const meta = (request: FastifyRequest): RequestMeta => ({
    ip: request.ip,
    async sessionOf(accountId) {
      const token = request.cookies[SESSION_COOKIE];
      if (!token) return undefined;
      const session = await findSessionByToken(app.ctx.db, token);
      if (!session || session.account.id !== accountId) return undefined;
      return isSessionValid(session, app.ctx.config) === 'ok' ? session.sessionId : undefined;
    },
  });

  r.get(
    '/api/recovery/questions',
    {
      config,
      schema: { tags: ['recovery'], summary: 'Security questions to choose from in step 2', response: { 200: securityQuestionsSchema } },
    },
    async () => service.questions(),
  );

  r.post(
    '/api/recovery/identify',
    {
      config,
      schema: {
        tags: ['recovery'],
        summary: 'Step 1: find the account; returns an opaque recovery id',
        body: identifySchema,
        response: { 200: identifyResultSchema },
      },
    },
    async (request) => service.identify(request.body, meta(request)),
  );

  r.post(
    '/api/recovery/verify',
    {
      config,
      schema: {
        tags: ['recovery'],
        summary: 'Step 2: the security question and answer; returns a single-use reset token',
        body: verifySchema,
        response: { 200: verifyResultSchema },
      },
    },
    async (request) => service.verify(request.body, meta(request)),
  );

  r.post(
    '/api/recovery/reset',
    {
      config,
      schema: { tags: ['recovery'], summary: 'Step 3: the new password', body: recoveryResetSchema, response: { 200: okSchema } },
    },
    async (request) => {
      await service.reset(request.body, meta(request));
      return { ok: true as const };
    },
  );

  r.post(
    '/api/recovery/email-link/check',
    {
      config,
      schema: {
        tags: ['recovery'],
        summary: 'Whether a password reset link still works',
        body: emailLinkQuerySchema,
        response: { 200: emailLinkStatusSchema },
      },
    },
    async (request) => service.checkEmailLink(request.body.token, request.ip),
  );

  r.post(
    '/api/recovery/email-link',
    {
      config,
      schema: {
        tags: ['recovery'],
        summary: 'Set a new password with the emailed link',
        body: emailLinkResetSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.resetWithEmailLink(request.body, meta(request));
      return { ok: true as const };
    },
  );

  r.post(
    '/api/invitations/check',
    {
      config,
      schema: {
        tags: ['recovery'],
        summary: "Whether an invitation link still works, and the invited account's name and username",
        body: invitationQuerySchema,
        response: { 200: invitationStatusSchema },
      },
    },
    async (request) => service.checkInvitation(request.body.token, request.ip),
  );

  r.post(
    '/api/invitations/accept',
    {
      config,
      schema: {
        tags: ['recovery'],
        summary: "Set a new account's first password with its invitation link (once)",
        body: invitationAcceptSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await service.acceptInvitation(request.body, meta(request));
      return { ok: true as const };
    },
  );
};
export default routes;
