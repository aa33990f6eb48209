import { AppError, fail } from './errors.js';

/** What an upload route says when its file is refused; each route has its own words. */
export interface MultipartTexts {
  /** The file is over the route's size limit (also the file field's message). */
  tooLarge: string;
}

/**
 * A limit of @fastify/multipart was passed: the file's size (FST_REQ_FILE_TOO_LARGE) or the
 * number of parts, files or fields (FST_PARTS_LIMIT, FST_FILES_LIMIT, FST_FIELDS_LIMIT), all 413.
 */
export function isMultipartTooLarge(err: unknown): boolean {
  const e = err as { code?: string; statusCode?: number } | null;
  return e?.code === 'FST_REQ_FILE_TOO_LARGE' || e?.statusCode === 413;
}

/** The route's file is over its size limit (a part cut at the limit, or the limit's error): 413 with the route's text. */
export function failTooLarge(texts: MultipartTexts): never {
  fail('PAYLOAD_TOO_LARGE', texts.tooLarge, { file: texts.tooLarge });
}

/**
 * The one mapping of an error met while reading a multipart body to the error catalogue
 * (errors.ts): our own AppError as it is; a limit passed, 413 PAYLOAD_TOO_LARGE with the route's
 * text on the file field; another error the multipart plugin already classifies as the client's
 * (4xx) keeps its status; anything else (a body cut off, no closing boundary, bad part headers)
 * is the client's broken body, 400 MALFORMED_UPLOAD.
 */
export function failMultipart(err: unknown, texts: MultipartTexts): never {
  if (err instanceof AppError) throw err;
  if (isMultipartTooLarge(err)) failTooLarge(texts);
  const status = (err as { statusCode?: number } | null)?.statusCode;
  if (status !== undefined && status >= 400 && status < 500) throw err;
  fail('MALFORMED_UPLOAD');
}

/** A failure while reading the request's own bytes (see readingPart): the client sent a broken body. */
class BrokenBodyError extends Error {}

/** A part's bytes, any failure to read them marked as the body's (failReadingPart maps it). */
export async function* readingPart(stream: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk;
  } catch (err) {
    throw new BrokenBodyError('request body broke off', { cause: err });
  }
}

/** An error of work that read a part through readingPart: the body's failure mapped by failMultipart, any other as it is. */
export function failReadingPart(err: unknown, texts: MultipartTexts): never {
  if (err instanceof BrokenBodyError) failMultipart(err.cause, texts);
  throw err;
}
