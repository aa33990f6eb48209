import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { can, isAccess, normalizeRole, type Permission, type PermissionFlag } from '../../../common/permissions.js';
import { ERRORS } from '../../../common/texts.js';
import { toSessionUser } from '../identity/session-user.js';
import { fail } from './errors.js';
import {
  endedReasonOf,
  findSessionByToken,
  isSessionValid,
  endSession,
  announceEnded,
  touchSession,
  SESSION_COOKIE,
} from '../identity/sessions.js';
import { runCommand } from '../writes/command.js';
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

/** host[:port] as a browser writes it in Origin: the scheme's default port left out. */
function authority(host: string, protocol: string): string {
  const lower = host.toLowerCase();
  if (protocol === 'http' && lower.endsWith(':80')) return lower.slice(0, -3);
  if (protocol === 'https' && lower.endsWith(':443')) return lower.slice(0, -4);
  return lower;
}

/**
 * Cross-site request forgery: a state-changing request that a browser marks as coming from
 * another site (Sec-Fetch-Site), or, from browsers that do not send that header, whose Origin
 * is neither the host it was sent to nor PUBLIC_URL, changes nothing. Requests with neither
 * header (the farmer app, command-line clients) are not a browser's cross-site request.
 */
function assertSameOrigin(request: FastifyRequest, publicUrl: string | undefined): void {
  if (SAFE_METHODS.has(request.method)) return;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) {
    if (site !== 'same-origin' && site !== 'none') fail('FORBIDDEN', ERRORS.crossSite);
    return;
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    fail('FORBIDDEN', ERRORS.crossSite);
  }
  const sameHost = url.host === authority(request.host, url.protocol.replace(':', ''));
  const isPublicUrl = publicUrl !== undefined && URL.canParse(publicUrl) && new URL(publicUrl).origin === url.origin;
  if (!sameHost && !isPublicUrl) fail('FORBIDDEN', ERRORS.crossSite);
}

/**
 * Deny by default. Every route declares its access level (config.access); the check runs on
 * the route the router matched, so no spelling of a URL (percent-encoding, case, slashes) can
 * reach a handler around it. Unmatched requests go to the not-found handler and run nothing.
 */
export function registerAccessPolicy(app: FastifyInstance): void {
  app.decorateRequest('auth', null);

  const routes: Pick<RouteOptions, 'method' | 'url' | 'config'>[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.addHook('onReady', async () => {
    const undeclared = routes.filter((r) => !isAccess(r.config?.access));
    if (undeclared.length > 0) {
      const list = undeclared.map((r) => `${String(r.method)} ${r.url}`).join(', ');
      throw new Error(`Every route must declare config.access ('public', 'signedIn' or a permission); missing on: ${list}`);
    }
  });

  // What a signed-in user reads is theirs: no shared or browser cache keeps a copy.
  app.addHook('onSend', async (request, reply, payload) => {
    const access = request.routeOptions.config?.access;
    if (access === 'public' || request.is404) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (type.includes('json') || type.includes('text/csv')) reply.header('cache-control', 'no-store');
    return payload;
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
    // Signed out from another session: the tab's next request says so, whether or not the live event reached it first.
    if (!session)
      fail('UNAUTHENTICATED', undefined, undefined, {
        reason: (await endedReasonOf(db, token)) === 'signed_out' ? 'signed_out' : 'session_ended',
      });
    const state = isSessionValid(session, appConfig);
    if (state === 'inactivity' || state === 'expired') {
      // Only this session: with several sessions allowed, the account's others may be in use.
      // Bookkeeping, not an audited write: no entry, and the tabs are told below.
      const ended = await runCommand({ db, events: null }, null, (trx) => endSession(trx, session.sessionId, state));
      if (ended) announceEnded(events, session.account.id, [session.sessionId], state);
      fail('UNAUTHENTICATED', undefined, undefined, { reason: state === 'inactivity' ? 'inactivity' : 'session_ended' });
    }
    if (state === 'ended') fail('UNAUTHENTICATED', undefined, undefined, { reason: 'session_ended' });
    const user = toSessionUser(session.account);
    request.auth = {
      sessionId: session.sessionId,
      reauthAt: session.reauthAt,
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
