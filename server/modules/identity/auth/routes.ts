import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SESSION_PATH } from '../../../../common/first-visit.js';
import { loginSchema, sessionSchema } from '../../../../common/schemas/auth.js';
import { SIGNED_IN_HINT_COOKIE } from '../../../../common/sessions.js';
import { loginResultSchema, loginSecondFactorSchema, secondFactorSessionSchema } from '../../../../common/schemas/second-factor.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { SESSION_COOKIE } from '../../../platform/identity/sessions.js';
import { toSessionUser } from '../../../platform/identity/session-user.js';
import { createAuthService } from './service.js';

const routes: FastifyPluginAsync = async (app) => {
  const service = createAuthService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: app.ctx.config.cookieSecure,
  };
  const hintOptions = { ...cookieOptions, httpOnly: false };
  const openSession = (reply: FastifyReply, token: string) => {
    reply.setCookie(SESSION_COOKIE, token, cookieOptions);
    reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', hintOptions);
  };

  r.post(
    '/api/auth/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with username or email (with two-step sign-in: a challenge for the code, and no session yet)',
        body: loginSchema,
        response: { 200: loginResultSchema },
      },
    },
    async (request, reply) => {
      const result = await service.login(request.body, { ip: request.ip, userAgent: request.headers['user-agent'] });
      if ('secondFactor' in result) return result;
      const { token, ...session } = result;
      openSession(reply, token);
      return session;
    },
  );

  r.post(
    '/api/auth/login/second-factor',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Finish signing in with a code from the authenticator app or a recovery code (or the first code of a required setup)',
        body: loginSecondFactorSchema,
        response: { 200: secondFactorSessionSchema },
      },
    },
    async (request, reply) => {
      const { token, ...session } = await service.loginSecondFactor(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      });
      openSession(reply, token);
      return session;
    },
  );

  r.post(
    '/api/auth/logout',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'End this session', response: { 204: z.null() } },
    },
    async (request, reply) => {
      await service.logout(request.cookies[SESSION_COOKIE]);
      reply.clearCookie(SESSION_COOKIE, cookieOptions);
      reply.clearCookie(SIGNED_IN_HINT_COOKIE, hintOptions);
      return reply.code(204).send(null);
    },
  );

  r.get(
    SESSION_PATH,
    {
      config: { access: 'signedIn', passive: true },
      schema: { tags: ['auth'], summary: 'The signed-in user (does not count as activity)', response: { 200: sessionSchema } },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      // Sessions opened before the hint existed get it at their next check.
      if (!request.cookies[SIGNED_IN_HINT_COOKIE]) reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', hintOptions);
      return { user: toSessionUser(auth.account), sessionId: auth.sessionId, idleTimeoutMs: app.ctx.config.sessionIdleTimeoutMs };
    },
  );

  r.post(
    '/api/auth/activity',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['auth'], summary: 'The user is still active in the browser', response: { 204: z.null() } },
    },
    async (_request, reply) => reply.code(204).send(null),
  );
};
export default routes;
