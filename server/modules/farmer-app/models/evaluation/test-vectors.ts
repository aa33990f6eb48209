import { MODEL_LIMITS } from '../../../../../common/models.js';
import type { PixelContract } from '../../../../../common/schemas/models.js';
import { atInputSize } from './prepare.js';

/** A photo at the model's input size (JPEG) and the best scores the console's scorer gave it. */
export interface TestVector {
  jpegBase64: string;
  width: number;
  height: number;
  top: Array<[number, number]>;
}

interface Scored {
  imageId: string;
  predicted: number;
  confidence: number;
  top: Array<[number, number]>;
}

/**
 * The photos a model's test vectors are drawn from: the most confident photo of each predicted
 * output (clear of its second-best by MODEL_LIMITS.testVectorMinMargin), most confident first.
 */
export function testVectorCandidates<P extends Scored>(predictions: readonly P[]): P[] {
  const best = new Map<number, P>();
  for (const p of predictions) {
    if (p.confidence - (p.top[1]?.[1] ?? 0) < MODEL_LIMITS.testVectorMinMargin) continue;
    const b = best.get(p.predicted);
    if (!b || p.confidence > b.confidence || (p.confidence === b.confidence && p.imageId < b.imageId)) best.set(p.predicted, p);
  }
  return [...best.values()].sort((a, b) => b.confidence - a.confidence || (a.imageId < b.imageId ? -1 : 1));
}

/**
 * The farmer app's check of its own pixel preparation: the candidates in order, each brought to
 * the input size as the evaluation brings it and stored as a JPEG without chroma subsampling
 * (the phone decodes it to the same pixels), with the scores the scorer gives that JPEG. A photo
 * the JPEG scores otherwise than the original is passed over.
 */
export async function makeTestVectors(
  candidates: readonly Scored[],
  read: (imageId: string) => Promise<Buffer | null>,
  contract: PixelContract,
  input: { width: number; height: number },
  score: (photo: Buffer) => Promise<Array<[number, number]>>,
): Promise<TestVector[]> {
  const out: TestVector[] = [];
  for (const p of candidates) {
    if (out.length >= MODEL_LIMITS.testVectors) break;
    const photo = await read(p.imageId);
    if (!photo) continue;
    const jpeg = await atInputSize(photo, contract, input).jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).toBuffer();
    const top = await score(jpeg);
    if (top[0]?.[0] !== p.predicted) continue;
    out.push({ jpegBase64: jpeg.toString('base64'), width: input.width, height: input.height, top });
  }
  return out;
}
