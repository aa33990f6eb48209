import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  recoveryCodesSchema,
  secondFactorEnableSchema,
  secondFactorProofSchema,
  secondFactorSetupStartSchema,
  secondFactorStatusSchema,
} from '../../../../common/schemas/second-factor.js';
import { accountIdParams, adminAccountSchema, reauthSchema } from '../../../../common/schemas/accounts.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { createSecondFactorService } from './second-factor.js';

/** Account Settings, 'Two-step sign-in': the own account, for super admins; and a super admin's reset of another's. */
const routes: FastifyPluginAsync = async (app) => {
  const service = createSecondFactorService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { access: 'secondFactor.manageOwn' } as const;
  const tags = ['profile'];

  r.get(
    '/api/profile/second-factor',
    {
      config,
      schema: {
        tags,
        summary: 'My two-step sign-in: on or off, recovery codes left, required for my role',
        response: { 200: secondFactorStatusSchema },
      },
    },
    async (request) => service.status(requireAuth(request)),
  );

  r.post(
    '/api/profile/second-factor/setup',
    {
      config,
      schema: {
        tags,
        summary: 'Start turning two-step sign-in on: a new key, its otpauth URI and QR code (pending for 10 minutes); needs the password',
        body: secondFactorProofSchema,
        response: { 200: secondFactorSetupStartSchema },
      },
    },
    async (request) => service.startSetup(requireAuth(request), request.body),
  );

  r.post(
    '/api/profile/second-factor/enable',
    {
      config,
      schema: {
        tags,
        summary: 'Confirm the new key with a code from the app; returns the ten recovery codes once',
        body: secondFactorEnableSchema,
        response: { 200: recoveryCodesSchema },
      },
    },
    async (request) => service.enable(requireAuth(request), request.body),
  );

  r.post(
    '/api/profile/second-factor/disable',
    {
      config,
      schema: {
        tags,
        summary: 'Turn two-step sign-in off (a current code or the password)',
        body: secondFactorProofSchema,
        response: { 200: secondFactorStatusSchema },
      },
    },
    async (request) => service.disable(requireAuth(request), request.body),
  );

  // A super admin's reset of another admin's second factor (lost phone), on the Accounts screen.
  r.post(
    '/api/accounts/:id/second-factor/reset',
    {
      config: { access: 'accounts.manage' },
      schema: {
        tags: ['accounts'],
        summary:
          "Reset an admin's two-step sign-in (lost phone): key and recovery codes removed; audited; needs the super admin's password",
        params: accountIdParams,
        body: reauthSchema,
        response: { 200: adminAccountSchema },
      },
    },
    async (request) => service.reset(request.params.id, requireAuth(request), request.body),
  );

  r.post(
    '/api/profile/second-factor/recovery-codes',
    {
      config,
      schema: {
        tags,
        summary: 'Make ten new recovery codes (the old ones stop working); a current code or the password',
        body: secondFactorProofSchema,
        response: { 200: recoveryCodesSchema },
      },
    },
    async (request) => service.regenerateCodes(requireAuth(request), request.body),
  );
};
export default routes;
