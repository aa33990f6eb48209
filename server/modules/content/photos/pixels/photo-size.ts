import { CATALOG_LIMITS } from '../../../../../common/catalog.js';
import type { CameraFacts } from './exif.js';
import type { SniffedType } from './image-type.js';
import { loadSharp, probeImage } from './images.js';
import { withCameraFacts } from './photo-privacy.js';

export interface SizedPhoto {
  body: Buffer;
  type: SniffedType;
  width: number;
  height: number;
  /** True when the photo was made smaller here. */
  resized: boolean;
}

/**
 * A photo at most `maxEdge` pixels on its longest side (0: any size): a larger one is turned
 * upright, scaled down and stored as a JPEG with the camera facts it had (never its location).
 * null when the picture cannot be read. `size`: the photo's, when the caller read it already.
 */
export async function fitPhotoEdge(
  body: Buffer,
  type: SniffedType,
  camera: CameraFacts,
  maxEdge: number,
  size?: { width: number; height: number },
): Promise<SizedPhoto | null> {
  const probe = size ?? (await probeImage(body));
  if (!probe) return null;
  if (maxEdge <= 0 || Math.max(probe.width, probe.height) <= maxEdge)
    return { body, type, width: probe.width, height: probe.height, resized: false };
  const sharp = await loadSharp();
  const { data, info } = await sharp(body, { failOn: 'none', limitInputPixels: CATALOG_LIMITS.maxImagePixels })
    .rotate()
    .resize(maxEdge, maxEdge, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: Math.round(CATALOG_LIMITS.photoResizeQuality * 100) })
    .toBuffer({ resolveWithObject: true });
  // The pixels are upright now: the facts keep camera and capture time, not the orientation.
  return {
    body: withCameraFacts(data, { ...camera, orientation: null }),
    type: 'image/jpeg',
    width: info.width,
    height: info.height,
    resized: true,
  };
}
