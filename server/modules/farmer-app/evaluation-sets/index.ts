import { EVALUATION_SETS_PATH } from '../../../../common/evaluation-sets.js';
import { pick } from '../../../platform/support/pick.js';
import { evaluationSetsRepository } from './repository.js';

/**
 * Evaluation sets: labelled photos a super admin uploads as a ZIP (one folder per label) to evaluate scanner models on,
 * kept apart from the farmer content. The ZIP is checked and unpacked on a file reader's thread (read-worker.ts, through
 * the zip guard), its photos stored as uploads are (intake.ts), its near-copies of training photos found at upload.
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */

/** The calls of evaluationSetsRepository the scanner models make: a set, its photos, and photos by id. */
export const evaluationSetReads = pick(evaluationSetsRepository, ['find', 'photos', 'photosByIds']);

/** A set photo's stored file as the browser asks for it. */
export const evaluationSetPhotoUrl = (setId: string, photoId: string, variant: 'thumb' | 'original') =>
  `${EVALUATION_SETS_PATH}/${encodeURIComponent(setId)}/photos/${encodeURIComponent(photoId)}/${variant}`;
