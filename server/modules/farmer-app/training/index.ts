/**
 * The training module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */
export { clusterPhotos } from './clusters.js';
export { trainingClasses, trainingSelection } from './service.js';
