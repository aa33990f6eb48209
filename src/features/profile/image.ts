import { AVATAR, SETTINGS } from '../../../common/profile';
import { isHeic, preparePhoto } from '../../lib/photos/prepare';

/** A failure of the picture flow carrying its docs/PRODUCT.md section 8 text. */
export class ImageFlowError extends Error {}

export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/') || isHeic(file);
}

/** Phones send HEIC; browsers cannot draw it, so it is converted to JPEG first (in a worker). */
async function decodableBlob(file: File): Promise<Blob> {
  if (!isHeic(file)) return file;
  return preparePhoto(file, 0, AVATAR.cropQuality);
}

/** The chosen file as an object URL the crop dialog can show ('Failed to read selected file.'). */
export async function readImageFile(file: File): Promise<string> {
  if (!isImageFile(file)) throw new ImageFlowError(SETTINGS.invalidImage);
  let blob: Blob;
  try {
    blob = await decodableBlob(file);
  } catch {
    throw new ImageFlowError(SETTINGS.readFailed);
  }
  const url = URL.createObjectURL(blob);
  try {
    await loadImage(url);
  } catch {
    URL.revokeObjectURL(url);
    throw new ImageFlowError(SETTINGS.invalidImage);
  }
  return url;
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('image did not load'));
    img.src = src;
  });
}

function toBlob(canvas: HTMLCanvasElement, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('canvas is empty'))), 'image/jpeg', quality);
  });
}

function canvasOf(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2d context');
  // JPEG has no transparency: transparent pixels become white, not black.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  return [canvas, ctx];
}

/** The crop area as JPEG at quality 0.9 (docs/PRODUCT.md section 5); 'Failed to crop image.' otherwise. */
export async function cropImage(src: string, area: PixelArea): Promise<Blob> {
  try {
    const img = await loadImage(src);
    const [canvas, ctx] = canvasOf(area.width, area.height);
    ctx.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, canvas.width, canvas.height);
    return await toBlob(canvas, AVATAR.cropQuality);
  } catch {
    throw new ImageFlowError(SETTINGS.cropFailed);
  }
}

/**
 * docs/PRODUCT.md section 5: longest side at most 512 px, JPEG at 0.85, quality lowered by 0.1 until
 * the size is at most 921,600 bytes or the quality reaches 0.4. 'Failed to compress image.'
 */
export async function compressAvatar(image: Blob): Promise<Blob> {
  try {
    const url = URL.createObjectURL(image);
    let img: HTMLImageElement;
    try {
      img = await loadImage(url);
    } finally {
      URL.revokeObjectURL(url);
    }
    const scale = Math.min(1, AVATAR.maxSide / Math.max(img.naturalWidth, img.naturalHeight));
    const [canvas, ctx] = canvasOf(img.naturalWidth * scale, img.naturalHeight * scale);
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    let quality: number = AVATAR.startQuality;
    for (;;) {
      const blob = await toBlob(canvas, quality);
      if (blob.size <= AVATAR.maxBytes || quality <= AVATAR.minQuality) return blob;
      quality = Math.max(AVATAR.minQuality, Math.round((quality - AVATAR.qualityStep) * 100) / 100);
    }
  } catch {
    throw new ImageFlowError(SETTINGS.compressFailed);
  }
}
