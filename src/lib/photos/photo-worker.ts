/// <reference lib="webworker" />
import { exifForResized } from './jpeg-exif';

/**
 * One photo made ready to send, off the main thread: HEIC decoded (libheif, WebAssembly: this
 * worker's script carries no CSP header, so the page's script-src 'self' stays strict), any
 * photo larger than `maxEdge` (0: no limit) drawn upright at that size, the result a JPEG. One
 * photo at a time, so at most one full-size decode per worker is in memory.
 */
export interface PhotoJob {
  id: number;
  file: Blob;
  heic: boolean;
  maxEdge: number;
  quality: number;
}
export type PhotoReply =
  | { id: number; kind: 'kept' }
  | { id: number; kind: 'jpeg'; blob: Blob; width: number; height: number }
  | { id: number; kind: 'failed'; message: string };

const scope = self as unknown as DedicatedWorkerGlobalScope;

async function decodeHeic(file: Blob): Promise<ImageBitmap> {
  const { default: decode } = await import('heic-decode');
  const { width, height, data } = await decode({ buffer: new Uint8Array(await file.arrayBuffer()) });
  return createImageBitmap(new ImageData(new Uint8ClampedArray(data), width, height));
}

async function prepare({ id, file, heic, maxEdge, quality }: PhotoJob): Promise<PhotoReply> {
  const bitmap = heic ? await decodeHeic(file) : await createImageBitmap(file, { imageOrientation: 'from-image' });
  try {
    const long = Math.max(bitmap.width, bitmap.height);
    if (!heic && (maxEdge <= 0 || long <= maxEdge)) return { id, kind: 'kept' };
    const scale = maxEdge > 0 && long > maxEdge ? maxEdge / long : 1;
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    context.imageSmoothingEnabled = true;
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
    const jpeg = await canvas.convertToBlob({ type: 'image/jpeg', quality });
    const exif =
      !heic && (file.type === 'image/jpeg' || file.type === '') ? exifForResized(await file.slice(0, 256 * 1024).arrayBuffer()) : null;
    const blob = exif ? new Blob([jpeg.slice(0, 2), exif as BlobPart, jpeg.slice(2)], { type: 'image/jpeg' }) : jpeg;
    return { id, kind: 'jpeg', blob, width, height };
  } finally {
    bitmap.close();
  }
}

scope.onmessage = (event: MessageEvent<PhotoJob>) => {
  prepare(event.data).then(
    (reply) => scope.postMessage(reply),
    (err: unknown) =>
      scope.postMessage({
        id: event.data.id,
        kind: 'failed',
        message: err instanceof Error ? err.message : String(err),
      } satisfies PhotoReply),
  );
};
