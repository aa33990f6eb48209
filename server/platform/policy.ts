import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, normalizeRole, type Permission, type PermissionFlag } from '../../common/permissions.js';
import { toSessionUser } from '../modules/accounts/presenter.js';
import { fail } from './errors.js';
import { findSessionByToken, isSessionValid, endAccountSessions, announceEnded, touchSession, SESSION_COOKIE } from './sessions.js';
import type { AuthContext } from './context.js';

const TOUCH_EVERY_MS = 10_000;

/** The signed-in user of this request, or a 401. */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) fail('UNAUTHENTICATED');
  return request.auth;
}

/** One call checks a permission of the declared table; 401 without a session, 403 without the right. */
export function authorize(request: FastifyRequest, permission: Permission | PermissionFlag): AuthContext {
  const auth = requireAuth(request);
  if (!can(auth.role, permission)) fail('FORBIDDEN');
  return auth;
}

/** Resolves the session cookie for every /api route that is not declared public. */
export function registerSessionHook(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
  // onRequest: a request without a valid session is refused before its body is read or validated.
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!request.url.startsWith('/api/') || config.public || request.is404) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) fail('UNAUTHENTICATED', undefined, undefined, { reason: 'no_session' });
    const { db, events, config: appConfig } = app.ctx;
    const session = await findSessionByToken(db, token);
    if (!session) fail('UNAUTHENTICATED', undefined, undefined, { reason: 'session_ended' });
    const state = isSessionValid(session, appConfig.sessionIdleTimeoutMs);
    if (state === 'inactivity') {
      const ended = await db.transaction().execute((trx) => endAccountSessions(trx, session.account.id, 'inactivity'));
      announceEnded(events, session.account.id, ended, 'inactivity');
      fail('UNAUTHENTICATED', undefined, undefined, { reason: 'inactivity' });
    }
    if (state === 'ended') fail('UNAUTHENTICATED', undefined, undefined, { reason: 'session_ended' });
    const user = toSessionUser(session.account);
    request.auth = {
      sessionId: session.sessionId,
      role: normalizeRole(session.account.role),
      user,
      account: session.account,
      actor: { id: user.id, fullname: user.fullname, email: user.email },
    };
    if (config.permission) authorize(request, config.permission);
    if (!config.passive && Date.now() - Date.parse(session.lastSeenAt) > TOUCH_EVERY_MS) {
      await touchSession(db, session.sessionId);
    }
  });
}
