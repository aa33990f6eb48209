/**
 * The scanner's training set: disease photos as a streamed ZIP in image-folder layout, labelled by slugs of the disease
 * names, split into train/validation/test by a hash of each photo's cluster (split.ts), copies grouped around their
 * earliest photo (clusters.ts).
 * This file is its face: other modules, the app and the command line import only this (lint: palayan/module-face).
 */
export { clusterPhotos } from './clusters.js';
export { trainingClasses, trainingSelection } from './service.js';
export type { TrainingClass } from './service.js';
