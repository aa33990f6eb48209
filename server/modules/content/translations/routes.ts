import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addLanguageSchema,
  completenessSchema,
  languageCodeSchema,
  languageListSchema,
  recordTranslationsSchema,
  saveTranslationsSchema,
  translatedCollectionSchema,
  translationStatusListSchema,
  translationStatusQuerySchema,
  updateLanguageSchema,
} from '../../../../common/schemas/languages.js';
import { authorize, requireAuth } from '../../../platform/http/policy.js';
import { createTranslationsService } from './service.js';
import { registerTranslationFiles } from './files-routes.js';

const recordParams = z.object({ collection: translatedCollectionSchema, recordId: z.string().min(1).max(200) });

/** The farmers' languages (super admins) and the translations of farmer-facing fields. */
const routes: FastifyPluginAsync = async (app) => {
  const service = createTranslationsService(app.ctx);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['translations'];

  r.get(
    '/api/languages',
    {
      config: { access: 'signedIn' },
      schema: {
        tags,
        summary: 'The languages farmer-facing texts are translated into (English is the source)',
        response: { 200: languageListSchema },
      },
    },
    async () => ({ items: await service.languages() }),
  );

  r.post(
    '/api/languages',
    {
      config: { access: 'languages.manage' },
      schema: {
        tags,
        summary: 'Add a language by ISO 639 code and name (audited)',
        body: addLanguageSchema,
        response: { 201: languageListSchema },
      },
    },
    async (request, reply) => reply.code(201).send({ items: await service.addLanguage(request.body, requireAuth(request).actor) }),
  );

  r.put(
    '/api/languages/:code',
    {
      config: { access: 'languages.manage' },
      schema: {
        tags,
        summary: 'Rename a language, or take it out of use (its translations are kept)',
        params: z.object({ code: languageCodeSchema }),
        body: updateLanguageSchema,
        response: { 200: languageListSchema },
      },
    },
    async (request) => ({ items: await service.updateLanguage(request.params.code, request.body, requireAuth(request).actor) }),
  );

  r.get(
    '/api/translations/completeness',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'Per language and collection: fields translated, stale (English changed since) and missing',
        response: { 200: completenessSchema },
      },
    },
    async () => service.completeness(),
  );

  r.get(
    '/api/translations/:collection/status',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: 'Records with fields missing or stale in a language',
        params: z.object({ collection: translatedCollectionSchema }),
        querystring: translationStatusQuerySchema,
        response: { 200: translationStatusListSchema },
      },
    },
    async (request) => service.status(request.params.collection, request.query.lang, request.query.filter),
  );

  r.get(
    '/api/translations/:collection/:recordId',
    {
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: "A record's English and its translations, field by field, each marked when the English changed since",
        params: recordParams,
        response: { 200: recordTranslationsSchema },
      },
    },
    async (request) => service.ofRecord(request.params.collection, request.params.recordId),
  );

  r.put(
    '/api/translations/:collection/:recordId/:lang',
    {
      config: { access: 'content.update', review: { collection: (params) => String(params.collection), action: 'translate' } },
      schema: {
        tags,
        summary:
          "Save a record's translations in one language over the record's edit version (409 when newer); a version of the record, audited",
        params: recordParams.extend({ lang: languageCodeSchema }),
        body: saveTranslationsSchema,
        response: { 200: recordTranslationsSchema },
      },
    },
    async (request) => {
      const { collection, recordId, lang } = request.params;
      // Option values are File Maintenance's: their translations too.
      const auth = collection === 'maintenance' ? authorize(request, 'maintenance.manage') : requireAuth(request);
      return service.save(
        collection,
        { recordId, lang, version: request.body.version, texts: request.body.texts, confirm: request.body.confirm },
        auth.actor,
      );
    },
  );

  await registerTranslationFiles(app, service);
};
export default routes;
