import { createFileReaders } from './platform/parsing/file-readers.js';
import { registerReviewGate } from './platform/writes/review-gate.js';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { logSerializers } from './platform/http/log-redaction.js';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { firstVisitPage } from '../common/first-visit.js';
import { LIMITS } from '../common/limits.js';
import { SIGNED_IN_HINT_COOKIE } from '../common/sessions.js';
import { APP } from '../common/texts.js';
import type { Config } from './config.js';
import { createDb } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import type { Database } from './db/types.js';
import { COLLECTION_ADAPTERS } from './modules/collections.js';
import { MODULE_ROUTES } from './modules/index.js';
import { ensureMaintenanceDefaults } from './modules/content/maintenance/index.js';
import { backfillFirstVersions } from './modules/publishing/versions/index.js';
import type { AppContext } from './platform/http/context.js';
import { MemoryEventBus, PostgresEventBus, type EventBus } from './platform/writes/events.js';
import { registerErrorHandling } from './platform/http/error-handler.js';
import { registerInputGuard } from './platform/http/input-guard.js';
import { registerSecurityHeaders } from './platform/http/security-headers.js';
import { declarePublicRoutes, registerAccessPolicy } from './platform/http/policy.js';
import { createStorage } from './platform/storage/storage.js';
import { startAuditSealer } from './platform/writes/audit.js';
import { clientKey } from './platform/http/client-address.js';

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
}

/** Opens the database, migrates it, seeds the option lists and wires every module. */
export interface BuildOptions {
  db?: Kysely<Database>;
  logger?: boolean;
  /** Where log lines go (default standard output). */
  logStream?: NodeJS.WritableStream;
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, serializers: logSerializers, ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: LIMITS.jsonBodyLimitBytes,
    // A hop count trusts that many proxies in front of the server.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
  });
  if (config.trustProxy === true) {
    app.log.warn(
      'TRUST_PROXY=true trusts every X-Forwarded-For hop, including addresses the client wrote itself: ' +
        'per-address limits can be dodged. Set TRUST_PROXY to the number of proxies in front (1 for one) or their addresses.',
    );
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = options.db ?? createDb(config);
  await migrateToLatest(db);
  await ensureMaintenanceDefaults(db);
  await backfillFirstVersions({ db, collections: COLLECTION_ADAPTERS });
  const events: EventBus = config.databaseUrl
    ? new PostgresEventBus(
        config.databaseUrl,
        (err) => app.log.warn({ err }, 'live event bus: connection problem'),
        config.eventChannel,
        `palayan-events:${config.instanceId}`,
        () => app.log.info('live event bus: listening again; open screens refresh once'),
      )
    : new MemoryEventBus();
  if (events instanceof PostgresEventBus) await events.whenReady();

  const storage = await createStorage(config);
  const files = createFileReaders(config.fileReaders, app.log);
  const ctx: AppContext = { config, db, events, storage, files, collections: COLLECTION_ADAPTERS, log: app.log };
  app.decorate('ctx', ctx);
  const sealer = startAuditSealer(db, (err) => app.log.error({ err }, 'audit chain: sealing failed'));
  app.addHook('onClose', async () => {
    await sealer.stop();
    await files.close();
    await events.close();
    storage.close?.();
    if (!options.db) await db.destroy();
  });

  registerErrorHandling(app);
  await app.register(cookie);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix and react-remove-scroll inject small <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.cookieSecure,
  });
  // JSON above 1 KB goes out compressed (brotli at a cheap level, or gzip). Only JSON: the
  // live stream is hijacked, CSV and ZIP downloads stream as they are, and the browser app's
  // files are compressed once at build time (preCompressed below).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    customTypes: /^application\/(?:[\w.+-]+\+)?json\b/,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
  await app.register(rateLimit, { global: false, keyGenerator: (request) => clientKey(request.ip) });
  await app.register(swagger, {
    openapi: {
      info: { title: `${APP.name} API`, version: '1.0.0', description: 'Back-office API of the rice-information console.' },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'palayan_session' } } },
    },
    // Each operation carries its declared access level, so tests generated from this document
    // cover every route, including ones added later.
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const access = input.route.config?.access;
      return {
        ...out,
        schema: { ...out.schema, 'x-access': access, ...(access && access !== 'public' ? { security: [{ session: [] }] } : {}) },
      };
    },
  });
  registerAccessPolicy(app);
  registerInputGuard(app);
  registerReviewGate(app);

  for (const module of MODULE_ROUTES) await app.register(module);

  app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  registerClient(app, config.clientDir);
  return { app, ctx };
}

function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

const DOCUMENT_ONLY_HEADERS = [
  'etag',
  'last-modified',
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/** Serves the built browser app; every non-API path falls back to index.html (client routing). */
function registerClient(app: FastifyInstance, clientDir: string): void {
  const hasClient = fs.existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    const options = {
      root: clientDir,
      index: false as const,
      // scripts/build-client.mjs writes .br and .gz beside each file; the one accepted is sent.
      preCompressed: true,
      setHeaders(res: FastifyReply, filePath: string) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // A hashed script or style sheet is never revalidated, and the page's policies (CSP,
        // framing, referrer…) apply to documents, not to these: ~600 bytes less on each of the
        // login page's files over a slow link. nosniff and the resource policy stay.
        if (immutable && /\.(?:js|css|woff2?)(?:\.br|\.gz)?$/.test(filePath)) {
          for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
        }
      },
    };
    // The files' routes live in a scope of their own that declares them public; the root
    // instance only gets reply.sendFile (serve: false) for the fallback below.
    app.register(async (scope) => {
      declarePublicRoutes(scope);
      await scope.register(fastifyStatic, { ...options, wildcard: false, decorateReply: false });
    });
    app.register(fastifyStatic, { ...options, serve: false });
  }
  const notFound = { error: { code: 'NOT_FOUND', message: 'Not found.' } };
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' || !hasClient) return reply.code(404).send(notFound);
    // Decoded before any decision: '/%61pi/…' is an API path too, and never the app page.
    let wanted: string;
    try {
      wanted = path.posix.normalize(decodeURIComponent(request.url.split('?')[0] ?? '/')).replace(/^([/\\])+/, '');
    } catch {
      return reply.code(404).send(notFound);
    }
    if (/^api([/\\;]|$)/i.test(wanted) || wanted.includes('\0')) return reply.code(404).send(notFound);
    // A file added by a rebuild after start is served too (routes were made at start).
    const full = path.join(clientDir, wanted);
    if (wanted && full.startsWith(clientDir + path.sep) && fs.existsSync(full) && fs.statSync(full).isFile()) {
      return reply.sendFile(wanted);
    }
    if (path.extname(wanted)) return reply.code(404).send(notFound);
    reply.header('cache-control', 'no-cache');
    reply.header('vary', 'Cookie');
    // A browser that may be signed in gets the copy that preloads its screen (common/first-visit.ts).
    const page = request.cookies[SIGNED_IN_HINT_COOKIE] ? firstVisitPage(`/${wanted}`) : null;
    if (page && fs.existsSync(path.join(clientDir, page.file))) return reply.sendFile(page.file);
    return reply.sendFile('index.html');
  });
}
