import type { FastifyRequest } from 'fastify';
import { MODEL_LIMITS, MODEL_TEXTS } from '../../../../common/models.js';
import { fail } from '../../../platform/http/errors.js';
import { failMultipart } from '../../../platform/http/multipart-errors.js';
import type { ModelParts } from './intake.js';

const UPLOAD_TEXTS = { tooLarge: MODEL_TEXTS.tooLarge };

/** A file part's bytes, refused (413) past `max` while it is read, not after. */
async function readCapped(stream: AsyncIterable<Buffer>, max: number, tooLarge: string, field: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > max) fail('PAYLOAD_TOO_LARGE', tooLarge, { [field]: tooLarge });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * A model file's bytes, written as they arrive into shared memory reserved at the size limit
 * (pages are taken only as they are written): the file reader's thread and the runtime's read
 * the same bytes without a copy each. Refused (413) past the limit.
 */
async function readShared(part: { file: AsyncIterable<Buffer> & { truncated?: boolean } }, max: number, tooLarge: string): Promise<Buffer> {
  const shared = Buffer.from(new SharedArrayBuffer(max));
  let size = 0;
  for await (const chunk of part.file) {
    if (size + chunk.length > max) fail('PAYLOAD_TOO_LARGE', tooLarge, { file: tooLarge });
    chunk.copy(shared, size);
    size += chunk.length;
  }
  if (part.file.truncated) fail('PAYLOAD_TOO_LARGE', tooLarge, { file: tooLarge });
  return shared.subarray(0, size);
}

/** The parts of a model upload: "meta" (JSON) first, then the files "labels" (optional) and "model". */
export async function readParts(request: FastifyRequest): Promise<ModelParts> {
  if (!request.isMultipart()) fail('UNSUPPORTED_MEDIA_TYPE', MODEL_TEXTS.noFile, { file: MODEL_TEXTS.noFile });
  const out: ModelParts = { meta: null, labelsFile: null, model: null };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'meta') out.meta = String(part.value);
        continue;
      }
      if (part.fieldname === 'model') out.model = await readShared(part, MODEL_LIMITS.maxBytes, MODEL_TEXTS.tooLarge);
      else if (part.fieldname === 'labels')
        out.labelsFile = await readCapped(part.file, MODEL_LIMITS.maxLabelsBytes, MODEL_TEXTS.labelsTooLarge, 'labels');
      // Another file part is read past and left out.
      else for await (const chunk of part.file) void chunk;
    }
  } catch (err) {
    failMultipart(err, UPLOAD_TEXTS);
  }
  return out;
}
