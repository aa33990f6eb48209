/**
 * The varieties module's face: what other modules, the app and the command line may
 * use of it; nothing else of the module is imported from outside it (lint: palayan/module-face).
 */
export { presentVariety } from './presenter.js';
export { createVarietiesService } from './service.js';
