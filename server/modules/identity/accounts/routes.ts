import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountCreateSchema,
  accountIdParams,
  accountInviteSchema,
  invitationResultSchema,
  reauthSchema,
  accountListQuery,
  accountListSchema,
  accountUpdateSchema,
  adminAccountSchema,
  availabilityQuery,
  availabilitySchema,
  confirmNameSchema,
} from '../../../../common/schemas/accounts.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { createAccountsService } from './service.js';
import { accountsSheet } from './export.js';
import { exportQuerySchema } from '../../../../common/schemas/spreadsheets.js';
import { sendSheet } from '../../../platform/spreadsheets/sheet-writer.js';

/** How often the server looks for accounts to auto-inactivate (besides every list load). */
export const AUTO_INACTIVE_SWEEP_MS = 15 * 60_000;

/** Admin accounts (docs/PRODUCT.md section 2): every route is for SYSTEM_ADMIN only. */
const routes: FastifyPluginAsync = async (app) => {
  const service = createAccountsService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: 'accounts.manage' } as const;
  const tags = ['accounts'];

  scheduleJob(app, {
    name: 'auto-inactivation sweep',
    everyMs: AUTO_INACTIVE_SWEEP_MS,
    runOnReady: true,
    run: () => service.sweepInactive(),
    onClose: () => service.idle(),
  });

  r.get(
    '/api/accounts',
    {
      config,
      schema: {
        tags,
        summary: 'One page of admin accounts, searched by name, email and username',
        querystring: accountListQuery,
        response: { 200: accountListSchema },
      },
    },
    async (request) => service.list(request.query),
  );

  r.get(
    '/api/accounts/export',
    {
      compress: false, // streamed as written (app.ts compresses JSON only)
      config,
      schema: {
        tags,
        summary: 'The accounts list as searched, as CSV or XLSX (no secrets, no contact numbers)',
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      // The list's statuses as the list would show them: due auto-inactivations first.
      await service.sweepInactive();
      return sendSheet(reply, accountsSheet(app.ctx, request.query.format, request.query.search));
    },
  );

  r.get(
    '/api/accounts/availability',
    {
      config,
      schema: {
        tags,
        summary: 'Is this username or email free (ignoring the account being edited)?',
        querystring: availabilityQuery,
        response: { 200: availabilitySchema },
      },
    },
    async (request) => service.availability(request.query),
  );

  r.get(
    '/api/accounts/:id',
    {
      config,
      schema: { tags, summary: 'One admin account', params: accountIdParams, response: { 200: adminAccountSchema } },
    },
    async (request) => service.get(request.params.id),
  );

  r.post(
    '/api/accounts',
    {
      config,
      schema: { tags, summary: 'Add a new admin', body: accountCreateSchema, response: { 201: adminAccountSchema } },
    },
    async (request, reply) => reply.code(201).send(await service.create(request.body, requireAuth(request))),
  );

  r.post(
    '/api/accounts/invitations',
    {
      config,
      schema: {
        tags,
        summary: 'Add a new admin with an invitation: no password; a single-use link to set one, mailed or returned once',
        body: accountInviteSchema,
        response: { 201: invitationResultSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await service.invite(request.body, requireAuth(request))),
  );

  r.post(
    '/api/accounts/:id/invitation',
    {
      config,
      schema: {
        tags,
        summary: 'A new invitation link for an admin who has no password yet (earlier links stop working); mailed or returned once',
        params: accountIdParams,
        body: reauthSchema,
        response: { 200: invitationResultSchema },
      },
    },
    async (request) => service.reinvite(request.params.id, request.body, requireAuth(request)),
  );

  r.put(
    '/api/accounts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Edit an admin (an empty password keeps the stored one)',
        params: accountIdParams,
        body: accountUpdateSchema,
        response: { 200: adminAccountSchema },
      },
    },
    async (request) => service.update(request.params.id, request.body, requireAuth(request)),
  );

  r.post(
    '/api/accounts/:id/restrict',
    {
      config,
      schema: {
        tags,
        summary: 'Restrict an admin (their open session ends at once)',
        params: accountIdParams,
        body: confirmNameSchema,
        response: { 200: adminAccountSchema },
      },
    },
    async (request) => service.restrict(request.params.id, request.body.confirmName, requireAuth(request)),
  );

  r.post(
    '/api/accounts/:id/unrestrict',
    {
      config,
      schema: { tags, summary: 'Unrestrict an admin', params: accountIdParams, response: { 200: adminAccountSchema } },
    },
    async (request) => service.unrestrict(request.params.id, requireAuth(request)),
  );

  r.post(
    '/api/accounts/:id/unlock',
    {
      config,
      schema: {
        tags,
        summary: "End an admin's sign-in lock (wrong passwords or codes) now; audited and mailed to the account",
        params: accountIdParams,
        response: { 200: adminAccountSchema },
      },
    },
    async (request) => service.unlock(request.params.id, requireAuth(request)),
  );

  r.delete(
    '/api/accounts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete an admin (soft delete; refused when the account has activities)',
        params: accountIdParams,
        body: confirmNameSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.remove(request.params.id, request.body.confirmName, requireAuth(request));
      return reply.code(204).send(null);
    },
  );
};
export default routes;
