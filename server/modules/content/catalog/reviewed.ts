import { CATALOG_FIELD_KEYS } from '../../../../common/catalog-fields.js';
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../../../db/types.js';
import type { Actor } from '../../../platform/writes/audit.js';
import { draftsRecords } from '../drafts/index.js';
import { versionsRecords } from '../../publishing/versions/index.js';
import { parseSnapshot } from '../../publishing/versions/index.js';
import { catalogVersioned } from './versioned.js';
import { movedInOrder, type CatalogKind } from '../../../../common/catalog.js';
import { can } from '../../../../common/permissions.js';
import type { CatalogCreateInput, CatalogUpdateInput } from '../../../../common/schemas/catalog.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fail } from '../../../platform/http/errors.js';
import type { ReviewChange, ReviewedAction, ReviewedPart, ReviewProposal } from '../../../platform/writes/review-gate.js';
import { catalogSnapshot } from './presenter.js';
import { catalogRepository } from './repository.js';
import { createCatalogService, storedFields, type PhotoMove } from './service.js';
import { PHOTO_ORDER_TEXTS } from '../../../../common/catalog-texts.js';
import type { PhotoMoveInput } from '../../../../common/schemas/catalog.js';

interface MoveInput {
  id: string;
  /** The author's moves in the order they made them (a move waiting for review is built on). */
  moves: PhotoMove[];
}

interface SaveInput {
  id: string | null;
  body: CatalogCreateInput | CatalogUpdateInput;
  canSetTrainingClass: boolean;
}

const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? '') === JSON.stringify(b ?? '');

/**
 * An edit made again on the entry as published now: the fields and photo list it changed from
 * its base are kept, the others are the published ones (a publish never reverts what was
 * published in between). Without the base's version (pruned), the edit is kept whole.
 */
async function rebaseEdit(ctx: AppContext, kind: CatalogKind, change: ReviewChange): Promise<ReviewProposal> {
  const { id, body, canSetTrainingClass } = change.input as SaveInput & { id: string };
  const adapter = catalogVersioned(kind);
  const now = (await adapter.current(ctx.db, [id])).get(id);
  const live = await catalogRepository.findLive(ctx.db, kind.collection, id);
  if (!now || !live) fail('NOT_FOUND');
  const baseRow =
    change.baseVersion === null ? undefined : await versionsRecords.atRecordVersion(ctx.db, kind.collection, id, change.baseVersion);
  const base = baseRow ? parseSnapshot(baseRow.snapshot) : null;
  const merged: Record<string, unknown> = { ...body };
  if (base) {
    for (const key of CATALOG_FIELD_KEYS)
      if (same(body[key], base.fields[key])) merged[key] = now.snapshot.fields[key] ?? (typeof body[key] === 'string' ? '' : body[key]);
    if (same(body.imageIds, base.photos ?? [])) merged.imageIds = now.snapshot.photos ?? [];
  }
  const next = { ...(merged as unknown as CatalogUpdateInput), version: Number(live.version) };
  return {
    recordId: id,
    recordName: next.name,
    baseVersion: Number(live.version),
    input: { id, body: next, canSetTrainingClass } satisfies SaveInput,
    photoIds: next.imageIds,
  };
}

/** A pest's or disease's add, edit, photo moves and delete as pending changes, published through the catalog service. */
export function catalogReviewed(kind: CatalogKind): ReviewedPart {
  const { collection } = kind;
  /** The state a save proposes: the fields as the service would store them, the photo ids in order. */
  const proposedSave = async (_ctx: AppContext, change: ReviewChange) => {
    const { body } = change.input as SaveInput;
    return catalogSnapshot(
      {
        ...storedFields(body),
        affectedParts: JSON.stringify(kind.affectedParts ? body.affectedParts : []),
        isTrainingClass: kind.trainingClasses && body.isTrainingClass ? 1 : 0,
        notRicePlant: kind.trainingClasses && body.isTrainingClass && body.notRicePlant ? 1 : 0,
      },
      body.imageIds,
    );
  };

  const save = (isCreate: boolean): ReviewedAction => ({
    async propose(ctx, request, auth) {
      const body = request.body as CatalogCreateInput | CatalogUpdateInput;
      const id = isCreate ? null : idOf(request);
      const canSetTrainingClass = can(auth.role, 'trainingData.export');
      await createCatalogService(ctx, kind).checkSave(id, body, auth.actor, { canSetTrainingClass });
      return {
        recordId: id,
        recordName: body.name,
        baseVersion: 'version' in body ? body.version : null,
        input: { id, body, canSetTrainingClass } satisfies SaveInput,
        photoIds: body.imageIds,
      };
    },
    async apply(ctx, change, author, role) {
      const { id, body } = change.input as SaveInput;
      // The training-class flag as the author may set it now (the role the publish runs with).
      const canSetTrainingClass = (change.input as SaveInput).canSetTrainingClass && can(role, 'trainingData.export');
      const service = createCatalogService(ctx, kind);
      if (id === null) return (await service.create(body as CatalogCreateInput, author, { canSetTrainingClass, keepDraft: true })).id;
      await service.update(id, { ...(body as CatalogUpdateInput), version: change.baseVersion ?? 0 }, author, { canSetTrainingClass });
    },
    proposed: proposedSave,
    ...(isCreate ? {} : { rebase: (ctx: AppContext, change: ReviewChange) => rebaseEdit(ctx, kind, change) }),
    ...(isCreate
      ? {
          submitted: (trx: Transaction<Database>, _change: ReviewChange, author: Actor) => draftsRecords.remove(trx, author.id, collection),
        }
      : {}),
  });

  return {
    collection,
    actions: {
      create: save(true),
      update: save(false),
      move_photo: {
        async propose(ctx, request, _auth, own) {
          const id = idOf(request);
          const { version, photoId, position } = request.body as PhotoMoveInput;
          const open = await own(id);
          // One open change per record: a move would replace the author's waiting edit.
          if (open && open.action !== 'move_photo') fail('CONFLICT', PHOTO_ORDER_TEXTS.ownPending);
          const moves = [...(open ? (open.input as MoveInput).moves : []), { photoId, position }];
          const { name } = await createCatalogService(ctx, kind).checkMoves(id, version, moves);
          return { recordId: id, recordName: name, baseVersion: version, input: { id, moves } satisfies MoveInput };
        },
        apply: async (ctx, change, author) => {
          const { id, moves } = change.input as MoveInput;
          await createCatalogService(ctx, kind).movePhotos(id, change.baseVersion ?? 0, moves, author);
        },
        async proposed(ctx, change) {
          const { id, moves } = change.input as MoveInput;
          const now = (await catalogVersioned(kind).current(ctx.db, [id])).get(id);
          if (!now) fail('NOT_FOUND');
          // Shown on the entry as published now: a move whose photo left it since is passed over.
          const photos = moves.reduce(
            (order, m) => movedInOrder(order, m.photoId, Math.min(m.position, order.length - 1)) ?? order,
            now.snapshot.photos ?? [],
          );
          return { ...now.snapshot, photos };
        },
      },
      delete: {
        async propose(ctx, request) {
          const row = await catalogRepository.findLive(ctx.db, collection, idOf(request));
          if (!row) fail('NOT_FOUND');
          return { recordId: row.id, recordName: row.name, baseVersion: Number(row.version), input: { id: row.id } };
        },
        apply: (ctx, change, author) => createCatalogService(ctx, kind).remove(change.recordId!, author, change.baseVersion ?? 0),
        proposed: async () => null,
      },
    },
  };
}
