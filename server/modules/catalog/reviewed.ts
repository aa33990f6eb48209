import type { FastifyRequest } from 'fastify';
import { CATALOG_KIND_LIST, type CatalogKind } from '../../../common/catalog.js';
import { can } from '../../../common/permissions.js';
import type { CatalogCreateInput, CatalogUpdateInput } from '../../../common/schemas/catalog.js';
import type { AppContext } from '../../platform/http/context.js';
import { fail } from '../../platform/http/errors.js';
import type { ReviewChange, ReviewedAction, ReviewedPart } from '../../platform/writes/review-gate.js';
import { catalogSnapshot } from './presenter.js';
import { catalogRepository } from './repository.js';
import { createCatalogService } from './service.js';

interface SaveInput { id: string | null; body: CatalogCreateInput | CatalogUpdateInput; canSetTrainingClass: boolean }

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

/** A pest's or disease's add, edit and delete as pending changes, published through the catalog service. */
function reviewed(kind: CatalogKind): ReviewedPart {
  const { collection } = kind;
  /** The state a save proposes: the fields as the service would store them, the photo ids in order. */
  const proposedSave = async (_ctx: AppContext, change: ReviewChange) => {
    const { body } = change.input as SaveInput;
    const orNull = (v: string) => (v === '' ? null : v.trim());
    return catalogSnapshot({
      name: body.name, scientificName: orNull(body.scientificName), localName: orNull(body.localName),
      affectedParts: JSON.stringify(kind.affectedParts ? body.affectedParts : []), isTrainingClass: kind.trainingClasses && body.isTrainingClass ? 1 : 0,
      description: orNull(body.description), cause: orNull(body.cause), symptoms: orNull(body.symptoms), treatments: orNull(body.treatments),
    }, body.imageIds);
  };

  const save = (isCreate: boolean): ReviewedAction => ({
    async propose(ctx, request, auth) {
      const body = request.body as CatalogCreateInput | CatalogUpdateInput;
      const id = isCreate ? null : idOf(request);
      const canSetTrainingClass = can(auth.role, 'trainingData.export');
      await createCatalogService(ctx, kind).checkSave(id, body, auth.actor, { canSetTrainingClass });
      return {
        recordId: id, recordName: body.name, baseVersion: 'version' in body ? body.version : null,
        input: { id, body, canSetTrainingClass } satisfies SaveInput, photoIds: body.imageIds,
      };
    },
    async apply(ctx, change, author) {
      const { id, body, canSetTrainingClass } = change.input as SaveInput;
      const service = createCatalogService(ctx, kind);
      if (id === null) await service.create(body as CatalogCreateInput, author, { canSetTrainingClass, keepDraft: true });
      else await service.update(id, { ...(body as CatalogUpdateInput), version: change.baseVersion ?? 0 }, author, { canSetTrainingClass });
    },
    proposed: proposedSave,
  });

  return {
    collection,
    actions: {
      create: save(true),
      update: save(false),
      delete: {
        async propose(ctx, request) {
          const row = await catalogRepository.findLive(ctx.db, collection, idOf(request));
          if (!row) fail('NOT_FOUND');
          return { recordId: row.id, recordName: row.name, baseVersion: Number(row.version), input: { id: row.id } };
        },
        async apply(ctx, change, author) {
          const id = change.recordId!;
          const row = await catalogRepository.findLive(ctx.db, collection, id);
          if (!row) fail('NOT_FOUND');
          if (Number(row.version) !== change.baseVersion) fail('VERSION_CONFLICT');
          await createCatalogService(ctx, kind).remove(id, author);
        },
        proposed: async () => null,
      },
    },
  };
}

export default CATALOG_KIND_LIST.map(reviewed);
