import { invalid } from '../../../platform/http/errors.js';
import { serveFileReads } from '../../../platform/parsing/serve.js';
import { readLabelsFile } from './labels.js';
import { readTfliteModel, TfliteFileError } from '../../../libraries/tflite/read-model.js';

/** A model file checked by the reader (a 400 on the file field when the scanner cannot use it). */
async function readModelFile(bytes: Uint8Array) {
  try {
    return await readTfliteModel(bytes);
  } catch (err) {
    if (err instanceof TfliteFileError) invalid({ file: err.message });
    throw err;
  }
}

/** The scanner models' reader thread: a .tflite file and a labels file, off the server's thread. */
export const modelFileTasks = { tflite: readModelFile, labels: readLabelsFile };

serveFileReads(modelFileTasks);
