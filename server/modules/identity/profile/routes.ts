import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  avatarUploadResultSchema,
  changePasswordSchema,
  passwordChangedSchema,
  profileSchema,
  profileUpdateSchema,
  resetEmailResultSchema,
} from '../../../../common/schemas/profile.js';
import { fail } from '../../../platform/http/errors.js';
import { scheduleJob } from '../../../platform/background/jobs.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { recoveryServiceFor } from '../recovery/index.js';
import { createPasswordChange } from './password.js';
import { createProfileService } from './service.js';

/** The browser sends at most 921,600 bytes (docs/PRODUCT.md section 9); the server allows some slack. */
export const AVATAR_UPLOAD_LIMIT_BYTES = 2 * 1024 * 1024;

/** Account Settings: the signed-in user's own account (any role). */
const routes: FastifyPluginAsync = async (app) => {
  const service = createProfileService(app.ctx);
  const recovery = recoveryServiceFor(app.ctx);
  const changePassword = createPasswordChange(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  scheduleJob(app, { name: 'unsaved profile picture clean-up', everyMs: 60 * 60_000, run: () => service.sweepStagedAvatars() });

  // The picture arrives as the raw image body (scoped to this plugin's routes).
  app.addContentTypeParser(/^image\/[\w.+-]+$/i, { parseAs: 'buffer', bodyLimit: AVATAR_UPLOAD_LIMIT_BYTES }, (_request, body, done) =>
    done(null, body),
  );
  app.addContentTypeParser(
    'application/octet-stream',
    { parseAs: 'buffer', bodyLimit: AVATAR_UPLOAD_LIMIT_BYTES },
    (_request, body, done) => done(null, body),
  );

  r.get(
    '/api/profile',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['profile'], summary: 'My account, as Account Settings shows it', response: { 200: profileSchema } },
    },
    async (request) => service.get(requireAuth(request)),
  );

  r.put(
    '/api/profile',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['profile'], summary: 'Save Account Settings', body: profileUpdateSchema, response: { 200: profileSchema } },
    },
    async (request) => service.update(requireAuth(request), request.body),
  );

  r.post(
    '/api/profile/avatar',
    {
      bodyLimit: AVATAR_UPLOAD_LIMIT_BYTES,
      config: { access: 'signedIn', rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: {
        tags: ['profile'],
        summary: 'Stage a new profile picture (raw image body); it is used when the profile is saved',
        consumes: ['image/jpeg', 'image/png', 'image/webp'],
        response: { 200: avatarUploadResultSchema },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      if (!Buffer.isBuffer(request.body) || request.body.length === 0) fail('UNSUPPORTED_MEDIA_TYPE');
      return service.uploadAvatar(auth, request.body);
    },
  );

  r.post(
    '/api/profile/password',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['profile'],
        summary: 'Change my password: the current one (and a code with a second factor), counted like a sign-in; ends my other sessions',
        body: changePasswordSchema,
        response: { 200: passwordChangedSchema },
      },
    },
    async (request) => changePassword(requireAuth(request), request.body),
  );

  r.post(
    '/api/profile/reset-email',
    {
      config: { access: 'signedIn' },
      schema: { tags: ['profile'], summary: 'Email me a single-use link to set a new password', response: { 200: resetEmailResultSchema } },
    },
    async (request) => {
      const auth = requireAuth(request);
      return recovery.sendResetEmail(auth.user.id);
    },
  );
};
export default routes;
