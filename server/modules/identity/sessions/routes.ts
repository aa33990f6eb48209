import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountSessionParamsSchema,
  endedCountSchema,
  sessionIdParamsSchema,
  sessionListSchema,
} from '../../../../common/schemas/sessions.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { createSessionsService } from './service.js';

const accountParams = z.object({ id: z.string().min(1).max(100) });

/** Sessions: one's own in Account Settings (any role), any account's on the Accounts screen (super admin). */
const routes: FastifyPluginAsync = async (app) => {
  const service = createSessionsService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['sessions'];

  r.get(
    '/api/profile/sessions',
    {
      config: { access: 'signedIn' },
      schema: { tags, summary: 'My open sessions, most recently active first (this one marked)', response: { 200: sessionListSchema } },
    },
    async (request) => service.listOwn(requireAuth(request)),
  );

  r.delete(
    '/api/profile/sessions/:sessionId',
    {
      config: { access: 'signedIn' },
      schema: { tags, summary: 'Sign out one of my other sessions', params: sessionIdParamsSchema, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await service.endOwn(request.params.sessionId, requireAuth(request));
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/api/profile/sessions/sign-out-others',
    {
      config: { access: 'signedIn' },
      schema: { tags, summary: 'Sign out everywhere else', response: { 200: endedCountSchema } },
    },
    async (request) => ({ ended: await service.endOwnOthers(requireAuth(request)) }),
  );

  r.get(
    '/api/accounts/:id/sessions',
    {
      config: { access: 'accounts.manage' },
      schema: { tags, summary: "An account's open sessions", params: accountParams, response: { 200: sessionListSchema } },
    },
    async (request) => service.listOf(request.params.id, requireAuth(request)),
  );

  r.delete(
    '/api/accounts/:id/sessions/:sessionId',
    {
      config: { access: 'accounts.manage' },
      schema: { tags, summary: "Sign out one of an account's sessions", params: accountSessionParamsSchema, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await service.endOf(request.params.id, request.params.sessionId, requireAuth(request));
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/api/accounts/:id/sessions/sign-out-all',
    {
      config: { access: 'accounts.manage' },
      schema: {
        tags,
        summary: "Sign out all of an account's sessions (but the asker's own)",
        params: accountParams,
        response: { 200: endedCountSchema },
      },
    },
    async (request) => ({ ended: await service.endAllOf(request.params.id, requireAuth(request)) }),
  );
};
export default routes;
