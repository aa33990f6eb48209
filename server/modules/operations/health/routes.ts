import type { FastifyPluginAsync } from 'fastify';
import { readiness } from './service.js';

/** Liveness (the process answers) and readiness (it can serve a change now). */
const routes: FastifyPluginAsync = async (app) => {
  app.get('/api/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ ok: true }));

  app.get('/api/ready', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const answer = await readiness(app.ctx);
    return reply
      .code(answer.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(answer);
  });
};
export default routes;
