import type { AppContext } from '../../../../platform/http/context.js';
import { fileUrl } from '../../../../platform/storage/storage.js';
import { photoReads } from '../../../content/photos/index.js';
import { evaluationSetPhotoUrl, evaluationSetReads } from '../../evaluation-sets/index.js';

export interface PhotoFiles {
  originalKey: string | null;
  thumbUrl: string | null;
}

/**
 * Where an evaluation's photos are stored, by photo id: the training photos of the farmer
 * content, or the evaluation set's photos when it scored a set.
 */
export async function photoFilesOf(
  ctx: AppContext,
  evaluation: { evaluationSetId: string | null },
  ids: readonly string[],
): Promise<Map<string, PhotoFiles>> {
  const setId = evaluation.evaluationSetId;
  if (setId)
    return new Map(
      (await evaluationSetReads.photosByIds(ctx.db, ids))
        .filter((p) => p.setId === setId)
        .map((p) => [p.id, { originalKey: p.originalKey, thumbUrl: evaluationSetPhotoUrl(setId, p.id, 'thumb') }]),
    );
  return new Map(
    (await photoReads.byIds(ctx.db, ids)).map((p) => [
      p.id,
      { originalKey: p.originalKey, thumbUrl: p.thumbKey ? fileUrl(p.thumbKey) : null },
    ]),
  );
}
