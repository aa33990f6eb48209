import { byCatalogCollection } from '../../../../common/catalog.js';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Access } from '../../../../common/permissions.js';
import {
  versionCompareQuerySchema,
  versionCompareSchema,
  versionListQuerySchema,
  versionListSchema,
  versionRestoreResultSchema,
  versionRestoreSchema,
} from '../../../../common/schemas/versions.js';
import { VERSION_API_BASE, VERSION_COLLECTIONS, type VersionCollection } from '../../../../common/versions.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { pruneVersions } from './prune.js';
import { createVersionRestore } from './restore.js';
import { createVersionsService } from './service.js';

const DAY_MS = 86_400_000;

/** Who may read and restore each collection's versions: whoever may view and edit its records. */
const ACCESS: Record<VersionCollection, { read: Access; restore: Access }> = {
  rice_seed_varieties: { read: 'content.view', restore: 'content.update' },
  ...byCatalogCollection((): { read: Access; restore: Access } => ({ read: 'content.view', restore: 'content.update' })),
  maintenance: { read: 'maintenance.manage', restore: 'maintenance.manage' },
};

/** The Versions panel of every record: `<records>/:id/versions`, compare, restore. */
const routes: FastifyPluginAsync = async (app) => {
  const versions = createVersionsService(app.ctx);
  const restorer = createVersionRestore(app.ctx);
  scheduleJob(app, {
    name: 'version retention',
    everyMs: DAY_MS,
    runOnReady: true,
    run: () => pruneVersions(app.ctx, app.ctx.config.versionRetention),
  });

  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const collection of VERSION_COLLECTIONS) {
    // The option-list documents' routes name their parameter docId; one position, one name.
    const param = collection === 'maintenance' ? 'docId' : 'id';
    const base = `${VERSION_API_BASE[collection]}/:${param}/versions`;
    const recordParams = z.object({ [param]: z.string().min(1).max(200) });
    const versionParams = recordParams.extend({ number: z.coerce.number().int().min(1) });
    const idOf = (params: Record<string, string | number>) => String(params[param]);
    const tags = ['versions'];
    const access = ACCESS[collection];

    r.get(
      base,
      {
        config: { access: access.read },
        schema: {
          tags,
          summary: `Versions of one ${collection} record, newest first`,
          params: recordParams,
          querystring: versionListQuerySchema,
          response: { 200: versionListSchema },
        },
      },
      async (request) => versions.list(collection, idOf(request.params), request.query.before, request.query.limit),
    );

    r.get(
      `${base}/compare`,
      {
        config: { access: access.read },
        schema: {
          tags,
          summary: 'Two versions compared field by field (photos added and removed)',
          params: recordParams,
          querystring: versionCompareQuerySchema,
          response: { 200: versionCompareSchema },
        },
      },
      async (request) => versions.compare(collection, idOf(request.params), request.query.from, request.query.to),
    );

    r.post(
      `${base}/:number/restore`,
      {
        config: { access: access.restore, review: { collection, action: 'version_restore' } },
        schema: {
          tags,
          summary: 'Save the record again with this version (409 when it changed since the version named)',
          params: versionParams,
          body: versionRestoreSchema,
          response: { 200: versionRestoreResultSchema },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        return restorer.restore(collection, idOf(request.params), Number(request.params.number), request.body, auth.actor, auth.role);
      },
    );
  }
};
export default routes;
