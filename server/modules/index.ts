import type { FastifyPluginAsync } from 'fastify';
import accounts from './accounts/routes.js';
import auditTrail from './audit-trail/routes.js';
import auth from './auth/routes.js';
import backups from './backups/routes.js';
import catalog from './catalog/routes.js';
import dashboard from './dashboard/routes.js';
import dataset from './dataset/routes.js';
import drafts from './drafts/routes.js';
import events from './events/routes.js';
import health from './health/routes.js';
import history from './history/routes.js';
import maintenance from './maintenance/routes.js';
import models from './models/routes.js';
import photos from './photos/routes.js';
import profile from './profile/routes.js';
import publicApi from './public/routes.js';
import recovery from './recovery/routes.js';
import review from './review/routes.js';
import scanReports from './scan-reports/routes.js';
import secondFactor from './second-factor/routes.js';
import sessions from './sessions/routes.js';
import training from './training/routes.js';
import translations from './translations/routes.js';
import trash from './trash/routes.js';
import varieties from './varieties/routes.js';
import versions from './versions/routes.js';

/**
 * Every feature module's HTTP routes (the default export of server/modules/<area>/routes.ts),
 * listed by import so that the compiler, the cycle check and a reader see each one; buildApp
 * registers them in this order (the folders' names). A new module adds its line here.
 */
export const MODULE_ROUTES: readonly FastifyPluginAsync[] = [
  accounts,
  auditTrail,
  auth,
  backups,
  catalog,
  dashboard,
  dataset,
  drafts,
  events,
  health,
  history,
  maintenance,
  models,
  photos,
  profile,
  publicApi,
  recovery,
  review,
  scanReports,
  secondFactor,
  sessions,
  training,
  translations,
  trash,
  varieties,
  versions,
];

