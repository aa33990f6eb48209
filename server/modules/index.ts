import type { FastifyPluginAsync } from 'fastify';
import { authRoutes } from './auth/routes.js';
import { dashboardRoutes } from './dashboard/routes.js';
import { eventRoutes } from './events/routes.js';
import { maintenanceRoutes } from './maintenance/routes.js';

/** Every feature's routes, registered by buildApp in this order. */
export const MODULES: FastifyPluginAsync[] = [
  authRoutes,
  eventRoutes,
  dashboardRoutes,
  maintenanceRoutes,
];
