import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LANGUAGE_LIMITS, LANGUAGE_TEXTS } from '../../../../common/languages.js';
import {
  translationFileQuerySchema,
  translationImportPreviewSchema,
  translationImportQuerySchema,
  translationImportReportSchema,
} from '../../../../common/schemas/languages.js';
import { can } from '../../../../common/permissions.js';
import { requireAuth } from '../../../platform/http/policy.js';
import { sendSheet } from '../../../platform/spreadsheets/sheet-writer.js';
import { receiveSheet } from '../../../platform/spreadsheets/upload.js';
import { commitOrSubmit, reviewedCollections } from './file-review.js';
import { collectionLabel, FILE_COLUMNS, languageUnits, planImport, refuseErrors, unitStatus, type Planned } from './files.js';
import type { createTranslationsService } from './service.js';
import { exportedHash, unitId, writeXliff, type FileUnit } from './xliff.js';

/** The translators' files: a language exported as XLIFF 2.0, CSV or XLSX, and imported back through a dry run. */
export async function registerTranslationFiles(app: FastifyInstance, service: ReturnType<typeof createTranslationsService>): Promise<void> {
  await app.register(multipart, { limits: { fileSize: LANGUAGE_LIMITS.maxImportBytes, files: 1, fields: 4, parts: 6, fieldSize: 1024 } });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['translations'];
  const FILE_TEXTS = { tooLarge: LANGUAGE_TEXTS.import.tooLarge };

  r.get(
    '/api/translations/export',
    {
      compress: false, // streamed as written (app.ts compresses JSON only)
      config: { access: 'content.view' },
      schema: {
        tags,
        summary: "A language's translation units (source, current translation, stale mark) as XLIFF 2.0, CSV or XLSX",
        querystring: translationFileQuerySchema,
      },
    },
    async (request, reply) => {
      const { lang, format } = request.query;
      await service.requireLanguage(lang);
      const units = await languageUnits(app.ctx, lang);
      if (format === 'xliff') {
        return reply
          .type('application/xliff+xml; charset=utf-8')
          .header('content-disposition', `attachment; filename="palayan-${lang}.xlf"`)
          .header('cache-control', 'no-store')
          .send(await writeXliff(lang, units));
      }
      const C = FILE_COLUMNS;
      return sendSheet<FileUnit>(reply, {
        format,
        name: `palayan-${lang}`,
        columns: [
          { header: C.unit, value: (u) => unitId(u), width: 24 },
          { header: C.language, value: () => lang, width: 10 },
          { header: C.collection, value: (u) => u.collection, width: 18 },
          { header: C.record, value: (u) => u.context, width: 36 },
          { header: C.field, value: (u) => u.field, width: 16 },
          { header: C.source, value: (u) => u.source, width: 50 },
          { header: C.target, value: (u) => u.target, width: 50 },
          { header: C.status, value: (u) => unitStatus(u), width: 20 },
          { header: C.sourceThen, value: (u) => u.stale?.sourceThen ?? null, width: 40 },
          { header: C.exported, value: (u) => exportedHash(u.target), width: 18 },
        ],
        batches: (async function* () {
          yield units;
        })(),
      });
    },
  );

  /** The file's collections whose changes need review now. */
  const reviewedOf = (planned: Planned) => reviewedCollections(app.reviewGate.current, planned);

  async function withFile<T>(
    request: Parameters<typeof receiveSheet>[1],
    work: (file: string, fileName: string) => Promise<T>,
  ): Promise<T> {
    const upload = await receiveSheet(app.ctx, request, FILE_TEXTS);
    try {
      return await work(upload.path, upload.fileName);
    } finally {
      await upload.remove();
    }
  }

  r.post(
    '/api/translations/import/preview',
    {
      config: { access: 'content.update' },
      schema: {
        tags,
        summary: 'Dry run of a translators\' file (multipart "file": XLIFF 2.0, CSV or XLSX): every unit\'s result, nothing saved',
        querystring: translationImportQuerySchema,
        response: { 200: translationImportPreviewSchema },
      },
    },
    async (request) => {
      await service.requireLanguage(request.query.lang);
      const canOptions = can(requireAuth(request).role, 'maintenance.manage');
      return withFile(request, async (file, name) => {
        const planned = await planImport(app.ctx, file, name, request.query.lang, canOptions);
        return { ...planned.preview, forReview: (await reviewedOf(planned)).map(collectionLabel) };
      });
    },
  );

  r.post(
    '/api/translations/import',
    {
      config: { access: 'content.update' },
      schema: {
        tags,
        summary:
          "Import a translators' file in one transaction (all or nothing unless onErrors=skip); a version and " +
          'an audit entry per record. A collection whose changes need review gets a pending change of its ' +
          'units instead',
        querystring: translationImportQuerySchema,
        response: { 200: translationImportReportSchema },
      },
    },
    async (request) => {
      const { lang, onErrors } = request.query;
      await service.requireLanguage(lang);
      return withFile(request, async (file, name) => {
        const auth = requireAuth(request);
        // Option values are File Maintenance's: for others, their units are errors.
        const planned = await planImport(app.ctx, file, name, lang, can(auth.role, 'maintenance.manage'));
        refuseErrors(planned, onErrors);
        return commitOrSubmit(app.ctx, app.reviewGate.current, request, planned, auth.actor);
      });
    },
  );
}
