import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { can, isAccess, normalizeRole, type Permission, type PermissionFlag } from '../../common/permissions.js';
import { ERRORS } from '../../common/texts.js';
import { toSessionUser } from '../modules/accounts/presenter.js';
import { fail } from './errors.js';
import { findSessionByToken, isSessionValid, endAccountSessions, announceEnded, touchSession, SESSION_COOKIE } from './sessions.js';
import type { AuthContext } from './context.js';

const TOUCH_EVERY_MS = 10_000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

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

/** Routes registered by a plugin inside `scope` (static files) are public. */
export function declarePublicRoutes(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), access: route.config?.access ?? 'public' };
  });
}

/**
 * The origin the console is served from: PUBLIC_URL when set, else the origin this request
 * reached (the Host header a browser cannot forge for a cross-site request).
 */
function ownOrigins(request: FastifyRequest, publicUrl: string | undefined): string[] {
  const origins = [`${request.protocol}://${request.host}`];
  if (publicUrl) {
    try {
      origins.push(new URL(publicUrl).origin);
    } catch {
      // config.ts validates PUBLIC_URL; a bad one simply adds nothing here.
    }
  }
  return origins;
}

/**
 * Cross-site request forgery: a state-changing request that a browser marks as coming from
 * another site (Sec-Fetch-Site), or whose Origin is not the console's own, changes nothing.
 * Requests with neither header (the farmer app, command-line clients) are not a browser's
 * cross-site request and pass.
 */
function assertSameOrigin(request: FastifyRequest, publicUrl: string | undefined): void {
  if (SAFE_METHODS.has(request.method)) return;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') fail('FORBIDDEN', ERRORS.crossSite);
  const origin = request.headers.origin;
  if (origin !== undefined && !ownOrigins(request, publicUrl).includes(origin)) fail('FORBIDDEN', ERRORS.crossSite);
}

/**
 * Deny by default. Every route declares its access level (config.access); the check runs on
 * the route the router matched, so no spelling of a URL (percent-encoding, case, slashes) can
 * reach a handler around it. Unmatched requests go to the not-found handler and run nothing.
 */
export function registerAccessPolicy(app: FastifyInstance): void {
  app.decorateRequest('auth', null);

  const routes: Pick<RouteOptions, 'method' | 'url' | 'config'>[] = [];
  app.addHook('onRoute', (route) => { routes.push(route); });
  app.addHook('onReady', async () => {
    const undeclared = routes.filter((r) => !isAccess(r.config?.access));
    if (undeclared.length > 0) {
      const list = undeclared.map((r) => `${String(r.method)} ${r.url}`).join(', ');
      throw new Error(`Every route must declare config.access ('public', 'signedIn' or a permission); missing on: ${list}`);
    }
  });

  // onRequest: refused before the body is read or validated.
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const config = request.routeOptions.config;
    const access = config.access;
    if (!isAccess(access)) fail('FORBIDDEN');
    const { db, events, config: appConfig } = app.ctx;
    assertSameOrigin(request, appConfig.publicUrl);
    if (access === 'public') return;

    const token = request.cookies[SESSION_COOKIE];
    if (!token) fail('UNAUTHENTICATED', undefined, undefined, { reason: 'no_session' });
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
    if (access !== 'signedIn') authorize(request, access);
    if (!config.passive && Date.now() - Date.parse(session.lastSeenAt) > TOUCH_EVERY_MS) {
      await touchSession(db, session.sessionId);
    }
  });
}
