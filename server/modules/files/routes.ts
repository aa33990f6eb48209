import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { fail } from '../../platform/errors.js';
import { assertSafeKey, InvalidStorageKey } from '../../platform/storage.js';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png', '.webp': 'image/webp', '.gif': 'image/gif',
};

/**
 * GET /api/files/<key>: stored images, for signed-in staff only. Keys change when content
 * changes, so responses may be cached for a year.
 */
const routes: FastifyPluginAsync = async (app) => {
  app.get('/api/files/*', {
    config: { access: 'signedIn' },
    schema: { tags: ['files'], summary: 'A stored file (signed-in staff only)' },
  }, async (request, reply) => {
    const raw = (request.params as { '*': string })['*'];
    let key: string;
    try {
      key = decodeURIComponent(raw);
      assertSafeKey(key);
    } catch (err) {
      if (err instanceof InvalidStorageKey || err instanceof URIError) fail('NOT_FOUND');
      throw err;
    }
    const type = TYPES[path.extname(key).toLowerCase()];
    const stat = type ? await app.ctx.storage.stat(key) : null;
    if (!type || !stat) fail('NOT_FOUND');
    reply.header('content-type', type);
    reply.header('content-length', stat.size);
    reply.header('cache-control', 'private, max-age=31536000, immutable');
    reply.header('x-content-type-options', 'nosniff');
    return reply.send(await app.ctx.storage.get(key));
  });
};
export default routes;
