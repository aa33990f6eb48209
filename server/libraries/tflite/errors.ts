export type TfliteErrorCode = 'NOT_TFLITE' | 'DAMAGED' | 'INPUT_NOT_IMAGE' | 'OUTPUT_NOT_VECTOR' | 'UNSUPPORTED';

/** A model file the scanner cannot use, with a message for the person who uploaded it. */
export class TfliteFileError extends Error {
  constructor(
    readonly code: TfliteErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TfliteFileError';
  }
}

export const damaged = (detail: string): TfliteFileError =>
  new TfliteFileError('DAMAGED', `The model file is cut short or damaged: ${detail}.`);

/** The 4-byte file identifier of a flatbuffer (bytes 4 to 8), or '' when it is too short. */
export const fileIdentifier = (bytes: Uint8Array): string => (bytes.length < 8 ? '' : String.fromCharCode(...bytes.subarray(4, 8)));
