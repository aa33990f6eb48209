import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CATALOG_LIMITS } from '../../../../common/catalog.js';
import { can } from '../../../../common/permissions.js';
import { photoSettingsSchema } from '../../../../common/schemas/catalog.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { CLEANUP_EVERY_MS, SWEEP_EVERY_MS, photoRuntime } from './variants.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { photoReads } from './repository/reads.js';
import { servingRepository } from './repository/serving.js';
import { mayView } from './states.js';
import { assertSafeKey, InvalidStorageKey } from '../../../platform/storage/storage.js';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

/**
 * Who may read a stored file: a photo of an entry (or one an edit or Dataset health took out,
 * which versions show) any signed-in staff; a staged photo only its uploader, or any signed-in
 * staff while a pending change names it (its reviewers); a profile picture
 * anyone signed in, an unsaved one only its owner. A key no photo or picture names is not served.
 */
async function mayRead(db: AppContext['db'], key: string, accountId: string): Promise<boolean> {
  if (key.startsWith('avatars/')) {
    const owner = await servingRepository.stagedAvatarOwner(db, key);
    return owner === undefined || owner === accountId;
  }
  const photo = await photoReads.byKey(db, key);
  if (photo === undefined) return false;
  return mayView(photo, accountId) || (await servingRepository.heldForReview(db, photo.id));
}

/**
 * The photos' background jobs, the browser's photo settings, and GET /api/files/<key>: stored
 * images, for signed-in staff only. Keys change when content changes, so responses may be cached
 * for a year.
 */
const routes: FastifyPluginAsync = async (app) => {
  // Photos whose thumbnails were not made before the last stop (or by an instance that died)
  // are picked up when the server is ready and every 30 s; staged photos never saved go hourly.
  const runtime = photoRuntime(app.ctx);
  scheduleJob(app, {
    name: 'pending photo sweep',
    everyMs: SWEEP_EVERY_MS,
    runOnReady: true,
    run: () => runtime.sweep(),
    onClose: () => runtime.stop(),
  });
  scheduleJob(app, { name: 'staged photo clean-up', everyMs: CLEANUP_EVERY_MS, run: () => runtime.cleanupStaged() });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/photo-settings',
    {
      config: { access: 'content.create' },
      schema: {
        tags: ['photos'],
        summary: 'How the browser sizes photos before sending them (PHOTO_MAX_EDGE) and whether this account may keep originals',
        response: { 200: photoSettingsSchema },
      },
    },
    async (request) => ({
      maxEdge: app.ctx.config.photoMaxEdge,
      quality: CATALOG_LIMITS.photoResizeQuality,
      canKeepOriginals: can(requireAuth(request).role, 'trainingData.export'),
    }),
  );

  app.get(
    '/api/files/*',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['files'], summary: 'A stored file (signed-in staff only)' },
    },
    async (request, reply) => {
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
      if (!type || !(await mayRead(app.ctx.db, key, requireAuth(request).user.id))) fail('NOT_FOUND');
      const stat = await app.ctx.storage.stat(key);
      if (!stat) fail('NOT_FOUND');
      reply.header('content-type', type);
      reply.header('content-length', stat.size);
      reply.header('cache-control', 'private, max-age=31536000, immutable');
      reply.header('x-content-type-options', 'nosniff');
      return reply.send(await app.ctx.storage.get(key));
    },
  );
};
export default routes;
