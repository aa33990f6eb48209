import type { FastifyPluginAsync } from 'fastify';
import accounts from './identity/accounts/routes.js';
import auditTrail from './operations/audit-trail/routes.js';
import auth from './identity/auth/routes.js';
import backups from './operations/backups/routes.js';
import catalog from './content/catalog/routes.js';
import dashboard from './operations/dashboard/routes.js';
import dataset from './content/dataset/routes.js';
import drafts from './content/drafts/routes.js';
import evaluationSets from './farmer-app/evaluation-sets/routes.js';
import events from './operations/events/routes.js';
import health from './operations/health/routes.js';
import history from './operations/history/routes.js';
import maintenance from './content/maintenance/routes.js';
import models from './farmer-app/models/routes.js';
import photos from './content/photos/routes.js';
import profile from './identity/profile/routes.js';
import publicApi from './farmer-app/public/routes.js';
import recovery from './identity/recovery/routes.js';
import review from './publishing/review/routes.js';
import scanReports from './farmer-app/scan-reports/routes.js';
import secondFactor from './identity/accounts/second-factor-routes.js';
import sessions from './identity/sessions/routes.js';
import training from './farmer-app/training/routes.js';
import translations from './content/translations/routes.js';
import trash from './content/trash/routes.js';
import varieties from './content/varieties/routes.js';
import versions from './publishing/versions/routes.js';

/**
 * Every feature module's HTTP routes (the default export of server/modules/<kind>/<module>/routes.ts,
 * and *-routes.ts), listed by import so that the compiler, the cycle check and a reader see each
 * one; buildApp registers them in this order. A new module adds its line here.
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
  evaluationSets,
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
