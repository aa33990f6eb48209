import { CATALOG_KIND_LIST } from '../../../../common/catalog.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  publicCatalogSchema, publicOptionsSchema, publicVarietiesSchema, syncQuerySchema, varietyQuerySchema,
} from '../../../../common/schemas/public.js';
import { fail } from '../../../platform/http/errors.js';
import { etagMatches, serializedEtag } from '../../../platform/http/etag.js';
import { requestedLanguage, type Localizer } from './localize.js';
import { createPublicService } from './service.js';

const PREFIX = '/api/public/v1';

/**
 * The farmer app's read-only content API, without a session: JSON with ETag / If-None-Match,
 * `updatedSince` delta sync reporting deletions, configurable CORS, rate-limited per IP.
 */
const routes: FastifyPluginAsync = async (app) => {
  const service = createPublicService(app.ctx);
  const { publicCorsOrigins, publicRateLimitPerMinute } = app.ctx.config;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: 'public' as const, rateLimit: { max: publicRateLimitPerMinute, timeWindow: 60_000 } };

  function cors(request: FastifyRequest, reply: FastifyReply): void {
    const origin = request.headers.origin;
    if (!origin) return;
    if (publicCorsOrigins.includes('*')) reply.header('access-control-allow-origin', '*');
    else if (publicCorsOrigins.includes(origin)) {
      reply.header('access-control-allow-origin', origin);
      reply.header('vary', 'Origin');
    }
    reply.header('access-control-expose-headers', 'ETag');
  }

  /**
   * Sends JSON with an ETag of it as serialized (by the route's response schema, once: the tag
   * hashes what is sent); 304 when the phone already has it. `serverTime` is left out of the
   * tag: a phone that keeps its older copy keeps an older, still valid cursor.
   */
  function withEtag(request: FastifyRequest, reply: FastifyReply, body: unknown): FastifyReply {
    const json = reply.serialize(body) as string;
    const cursor = (body as { serverTime?: unknown }).serverTime;
    const etag = serializedEtag(json, typeof cursor === 'string' ? cursor : undefined);
    reply.header('etag', etag);
    reply.header('cache-control', 'no-cache');
    if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.type('application/json; charset=utf-8').send(json);
  }

  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith(PREFIX)) cors(request, reply);
  });
  app.options(`${PREFIX}/*`, { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    reply.header('access-control-allow-methods', 'GET, OPTIONS');
    reply.header('access-control-allow-headers', 'If-None-Match');
    reply.header('access-control-max-age', '86400');
    return reply.code(204).send();
  });

  /**
   * The language to answer in (?lang=, else Accept-Language; unknown ones are English). The
   * answer varies by Accept-Language, and says its language.
   */
  async function language(request: FastifyRequest, reply: FastifyReply, lang: string | undefined): Promise<Localizer | null> {
    const chosen = await requestedLanguage(app.ctx, lang, request.headers['accept-language']);
    reply.header('vary', reply.getHeader('vary') ? `${String(reply.getHeader('vary'))}, Accept-Language` : 'Accept-Language');
    reply.header('content-language', chosen?.lang ?? 'en');
    return chosen;
  }

  const since = (q: { updatedSince?: string | undefined }) => (q.updatedSince ? new Date(q.updatedSince).toISOString() : undefined);

  r.get(`${PREFIX}/varieties`, {
    config,
    schema: { tags: ['public'], summary: 'Rice varieties (not deleted); filter by recommendedInTarlac; delta by updatedSince', querystring: varietyQuerySchema, response: { 200: publicVarietiesSchema, 304: z.null() } },
  }, async (request, reply) => {
    const q = request.query;
    const body = await service.varieties(since(q), q.recommendedInTarlac === undefined ? undefined : q.recommendedInTarlac === 'true', await language(request, reply, q.lang));
    return withEtag(request, reply, body);
  });

  for (const { collection, publicApi: { path, label } } of CATALOG_KIND_LIST) {
    r.get(`${PREFIX}/${path}`, {
      config,
      schema: { tags: ['public'], summary: `${label} with display and thumbnail image URLs; delta by updatedSince`, querystring: syncQuerySchema, response: { 200: publicCatalogSchema, 304: z.null() } },
    }, async (request, reply) => withEtag(request, reply, await service.catalog(collection, since(request.query), await language(request, reply, request.query.lang))));
  }

  r.get(`${PREFIX}/options`, {
    config,
    schema: { tags: ['public'], summary: 'The option lists the app filters by', querystring: z.object({ lang: z.string().max(64).optional() }), response: { 200: publicOptionsSchema, 304: z.null() } },
  }, async (request, reply) => withEtag(request, reply, await service.options(await language(request, reply, request.query.lang))));

  r.get(`${PREFIX}/images/:id/:variant`, {
    config,
    schema: {
      tags: ['public'], summary: 'A display-size or thumbnail JPEG of a published photo (never the original)',
      params: z.object({ id: z.string().max(100), variant: z.enum(['display', 'thumbnail'], { error: 'variant must be display or thumbnail' }) }),
    },
  }, async (request, reply) => {
    const key = await service.variantKey(request.params.id, request.params.variant);
    const stat = key ? await app.ctx.storage.stat(key) : null;
    if (!key || !stat) fail('NOT_FOUND');
    reply.header('content-type', key.endsWith('.webp') ? 'image/webp' : 'image/jpeg');
    reply.header('content-length', stat.size);
    reply.header('cache-control', 'public, max-age=31536000, immutable');
    return reply.send(await app.ctx.storage.get(key));
  });
};
export default routes;
