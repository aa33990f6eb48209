import { pick } from '../../../platform/support/pick.js';
import { modelsRepository } from './repository.js';

/**
 * The farmer app's scanner models: upload checks (the .tflite read off the server's thread with server/libraries/tflite),
 * label mapping, settings and the pixel contract, evaluations run off the request path (evaluation/: leased, scored on a
 * LiteRT.js thread), publishing per stage and channel with a pilot share, and the app's model download (ETag, Range).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */

/** The calls of modelsRepository other modules make; the rest of it is this module's own. */
export const modelsRecords = pick(modelsRepository, ['versions']);
