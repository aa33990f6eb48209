import { isHeic, preparePhoto } from '../../lib/photos/prepare';
import type { UploadItem } from './upload-item';

/** How photos are sized before they are sent (PHOTO_MAX_EDGE, from the server). */
export interface PhotoSizing {
  maxEdge: number;
  quality: number;
}

/**
 * A chosen file made ready to send, in a worker: HEIC converted to JPEG and, unless the batch
 * keeps originals, a photo larger than PHOTO_MAX_EDGE made that size (GIFs are sent as they are).
 */
export async function prepareForUpload(
  item: UploadItem,
  options: { keepOriginal: boolean; sizing: () => Promise<PhotoSizing>; signal: AbortSignal; onStep(): void },
): Promise<void> {
  const heic = isHeic(item.file);
  if (!heic && (options.keepOriginal || item.file.type === 'image/gif')) return;
  const sizing = options.keepOriginal ? null : await options.sizing().catch(() => null);
  const maxEdge = sizing?.maxEdge ?? 0;
  if (!heic && maxEdge <= 0) return;
  item.status = heic ? 'converting' : 'resizing';
  options.onStep();
  const file = await preparePhoto(item.file, maxEdge, sizing?.quality ?? 0.9);
  Object.assign(item, { file, name: file.name, size: file.size });
  if (options.signal.aborted) throw new DOMException('Aborted', 'AbortError');
}
