import sharp, { type Sharp } from 'sharp';
import type { PixelContract } from '../../../../../common/schemas/models.js';

export interface InputSpec {
  height: number;
  width: number;
  type: 'float32' | 'uint8';
}

/**
 * A photo as the model's input, prepared as its pixel contract says: turned upright by its
 * EXIF orientation (as the phone's camera shows it), brought to the input size with bilinear
 * resampling (stretched, centre-cropped or letterboxed), then scaled per channel. A uint8
 * model takes the 0–255 values as they are (its quantisation carries the scaling).
 */
export async function prepareInput(
  photo: Buffer,
  contract: PixelContract,
  spec: InputSpec,
): Promise<Float32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>> {
  const { data } = await atInputSize(photo, contract, spec).raw().toBuffer({ resolveWithObject: true });
  if (spec.type === 'uint8') return new Uint8Array(data);
  const out = new Float32Array(data.length);
  const mean = contract.mean ?? [0, 0, 0];
  const std = contract.std ?? [1, 1, 1];
  for (let i = 0; i < data.length; i += 1) {
    const v = data[i]!;
    switch (contract.scaling) {
      case '0-255':
        out[i] = v;
        break;
      case '0-1':
        out[i] = v / 255;
        break;
      case '-1-1':
        out[i] = (v / 255 - 0.5) * 2;
        break;
      case 'mean-std': {
        const c = i % 3;
        out[i] = (v / 255 - mean[c]!) / std[c]!;
        break;
      }
    }
  }
  return out;
}

/** A photo turned upright and brought to the input size as its contract says, before any scaling. */
export function atInputSize(photo: Buffer, contract: PixelContract, spec: { width: number; height: number }): Sharp {
  const fit = contract.resize === 'stretch' ? 'fill' : contract.resize === 'center-crop' ? 'cover' : 'contain';
  return sharp(photo, { failOn: 'none' })
    .rotate()
    .removeAlpha()
    .toColourspace('srgb')
    .resize(spec.width, spec.height, { fit, kernel: 'linear', position: 'centre', background: { r: 0, g: 0, b: 0 } });
}

/** The k best outputs, best first: [index, score]. */
export function topK(scores: ArrayLike<number>, k: number): Array<[number, number]> {
  const order = Array.from({ length: scores.length }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  return order.slice(0, k).map((i) => [i, Number(scores[i]!)]);
}
