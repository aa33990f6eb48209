import type { FastifyPluginAsync } from 'fastify';
import { can } from '../../../../common/permissions.js';
import type { LiveEvent } from '../../../platform/writes/events.js';
import { every } from '../../../platform/background/jobs.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { findSessionByToken, isSessionValid, SESSION_COOKIE } from '../../../platform/identity/sessions.js';

const KEEPALIVE_MS = 25_000;

/**
 * GET /api/events: server-sent events. Data changes arrive as `{topic, id, op}`; the end of
 * this tab's session arrives as an `event: session` message, after which the stream closes.
 */
const routes: FastifyPluginAsync = async (app) => {
  app.get(
    '/api/events',
    {
      config: { access: 'signedIn', passive: true },
      schema: { tags: ['live'], summary: 'Live updates (text/event-stream)' },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { events, db, config } = app.ctx;
      const token = request.cookies[SESSION_COOKIE]!;
      const seesAllAccounts = can(auth.role, 'accounts.manage');
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 3000\n: connected\n\n');

      let closed = false;
      const send = (event: string, data: unknown) => {
        if (!closed) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      const end = (reason: string) => {
        send('session', { op: 'ended', reason });
        close();
      };

      const unsubscribe = events.subscribe((event: LiveEvent) => {
        if (event.topic === 'session') {
          if (event.id === auth.sessionId)
            end(
              event.reason === 'inactivity' || event.reason === 'logout' || event.reason === 'signed_out' ? event.reason : 'session_ended',
            );
          return;
        }
        if (event.topic === 'accounts' && !seesAllAccounts && event.id !== auth.user.id) return;
        send('change', { topic: event.topic, id: event.id ?? null, op: event.op });
      });

      const stopKeepalive = every(KEEPALIVE_MS, () => {
        if (!closed) res.write(': ping\n\n');
      });
      // Fallback to the pushed event: re-check the session on a timer.
      const stopRecheck = every(config.sessionRecheckMs, () => void recheck());
      async function recheck() {
        try {
          const session = await findSessionByToken(db, token);
          const state = session ? isSessionValid(session, config) : 'ended';
          if (state !== 'ok') end(state === 'inactivity' ? 'inactivity' : 'session_ended');
        } catch (err) {
          request.log.warn({ err }, 'live stream session re-check failed');
        }
      }

      function close() {
        if (closed) return;
        closed = true;
        stopKeepalive();
        stopRecheck();
        unsubscribe();
        res.end();
      }
      request.raw.on('close', close);
    },
  );
};
export default routes;
