import type { AppContext } from '../../../../platform/http/context.js';

export interface PassProgress {
  done: number;
  total: number;
  changed: number;
  unreadable: number;
}

export interface StoredPass {
  /** Photos the pass still has to visit. */
  count(): Promise<number>;
  /** The next of them in id order after `afterId`. */
  next(afterId: string, limit: number): Promise<Array<{ id: string; originalKey: string | null }>>;
  /** One photo; true when it changed something. A throw counts the photo as unreadable. */
  visit(row: { id: string; originalKey: string }): Promise<boolean>;
  /** What the log says of a photo left as it is. */
  skipped: string;
}

/**
 * One resumable pass over stored photos (local folder or S3) in id order, a hundred rows a read:
 * what a stopped run did not reach is still to do on the next run. A photo that cannot be read
 * is counted, logged and left.
 */
export async function passOverStoredPhotos(
  ctx: AppContext,
  pass: StoredPass,
  onProgress: (p: PassProgress) => void = () => {},
): Promise<PassProgress> {
  const progress: PassProgress = { done: 0, total: await pass.count(), changed: 0, unreadable: 0 };
  onProgress(progress);
  let after = '';
  for (;;) {
    const rows = await pass.next(after, 100);
    if (rows.length === 0) break;
    for (const row of rows) {
      after = row.id;
      try {
        if (await pass.visit({ id: row.id, originalKey: row.originalKey! })) progress.changed += 1;
      } catch (err) {
        progress.unreadable += 1;
        ctx.log.warn({ err, imageId: row.id }, pass.skipped);
      }
      progress.done += 1;
      onProgress(progress);
    }
  }
  return progress;
}
