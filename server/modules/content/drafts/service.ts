import type { CatalogKind } from '../../../../common/catalog.js';
import type { Draft, DraftInput, VarietyDraft, VarietyDraftInput } from '../../../../common/schemas/drafts.js';
import { draftFieldsSchema, varietyDraftInputSchema } from '../../../../common/schemas/drafts.js';
import { isoIn, nowIso } from '../../../platform/support/clock.js';
import { runCommand } from '../../../platform/writes/command.js';
import type { AppContext } from '../../../platform/http/context.js';
import { fileUrl } from '../../../platform/storage/storage.js';
import { photoReads } from '../photos/index.js';
import { draftsRepository as repo } from './repository.js';

const DAY_MS = 86_400_000;

/** The drafts table's key of a variety form (a collection's name: one draft per account). */
const VARIETY_DRAFT = 'rice_seed_varieties';

/**
 * The add form of a pest or disease kept as its account's draft, so a closed tab, a reload or
 * a power cut loses nothing: the fields, and the chosen photos in order with the staged photo
 * of each one uploaded; and the variety form, a new record's or an edit's. A draft lasts
 * DRAFT_RETENTION_DAYS from its last change; the save of the entry removes it.
 */
export function createDraftsService(ctx: Pick<AppContext, 'db' | 'config'>) {
  const retentionMs = ctx.config.draftRetentionDays * DAY_MS;
  return {
    async get(accountId: string, kind: CatalogKind): Promise<Draft | null> {
      const draft = await repo.find(ctx.db, accountId, kind.collection);
      if (!draft) return null;
      const rows = await repo.photos(ctx.db, accountId, kind.collection);
      const staged = new Map(
        (
          await photoReads.stagedOf(
            ctx.db,
            accountId,
            rows.flatMap((r) => (r.imageId ? [r.imageId] : [])),
          )
        ).map((p) => [p.id, p]),
      );
      const photos = rows.map((r) => {
        const photo = r.imageId ? staged.get(r.imageId) : undefined;
        return {
          id: photo?.id ?? null,
          name: r.name,
          size: Number(r.size),
          lastModified: Number(r.lastModified),
          thumbUrl: photo?.thumbKey ? fileUrl(photo.thumbKey) : null,
        };
      });
      let fields: unknown;
      try {
        fields = JSON.parse(draft.fields);
      } catch {
        fields = {};
      }
      return {
        fields: draftFieldsSchema.catch(draftFieldsSchema.parse({})).parse(fields),
        photos,
        uploaded: photos.filter((p) => p.id !== null).length,
        updatedAt: draft.updatedAt,
        expiresAt: new Date(Date.parse(draft.updatedAt) + retentionMs).toISOString(),
      };
    },

    /** Replaces the account's draft; photo ids that are not its own unsaved photos are kept as files still to upload. */
    async save(accountId: string, kind: CatalogKind, input: DraftInput): Promise<{ uploaded: number; total: number }> {
      const ids = input.photos.map((p) => p.id).filter((id): id is string => id !== null);
      const owned = new Set((await photoReads.stagedOf(ctx.db, accountId, [...new Set(ids)], kind.collection)).map((r) => r.id));
      const seen = new Set<string>();
      const photos = input.photos.map((p) => {
        const id = p.id !== null && owned.has(p.id) && !seen.has(p.id) ? p.id : null;
        if (id) seen.add(id);
        return { imageId: id, name: p.name, size: p.size, lastModified: p.lastModified };
      });
      // A draft is the account's own scratch: not audited, not announced.
      await runCommand({ db: ctx.db, events: null }, null, (trx) =>
        repo.save(trx, { accountId, collection: kind.collection, fields: JSON.stringify(input.fields), updatedAt: nowIso() }, photos),
      );
      return { uploaded: seen.size, total: photos.length };
    },

    remove: (accountId: string, kind: CatalogKind) => repo.remove(ctx.db, accountId, kind.collection),

    /** The account's unsaved variety form (one: a new record's or an edit's), or null. */
    async getVariety(accountId: string): Promise<VarietyDraft | null> {
      const draft = await repo.find(ctx.db, accountId, VARIETY_DRAFT);
      if (!draft) return null;
      let kept: unknown;
      try {
        kept = JSON.parse(draft.fields);
      } catch {
        return null;
      }
      const parsed = varietyDraftInputSchema.safeParse(kept);
      if (!parsed.success) return null;
      return { ...parsed.data, updatedAt: draft.updatedAt, expiresAt: new Date(Date.parse(draft.updatedAt) + retentionMs).toISOString() };
    },

    async saveVariety(accountId: string, input: VarietyDraftInput): Promise<void> {
      await runCommand({ db: ctx.db, events: null }, null, (trx) =>
        repo.save(trx, { accountId, collection: VARIETY_DRAFT, fields: JSON.stringify(input), updatedAt: nowIso() }, []),
      );
    },

    removeVariety: (accountId: string) => repo.remove(ctx.db, accountId, VARIETY_DRAFT),

    /** Drafts not changed for DRAFT_RETENTION_DAYS go; their staged photos then go with the hourly clean-up. */
    removeExpired: () => runCommand({ db: ctx.db, events: null }, null, (trx) => repo.removeOlderThan(trx, isoIn(-retentionMs))),
  };
}
