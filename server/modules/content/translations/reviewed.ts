import type { FastifyRequest } from 'fastify';
import { TRANSLATED_COLLECTIONS, type TranslatedCollection } from '../../../../common/languages.js';
import type { SaveTranslationsInput } from '../../../../common/schemas/languages.js';
import { fail } from '../../../platform/http/errors.js';
import type { ReviewedPart } from '../../../platform/writes/review-gate.js';
import { translatedCollection } from './adapters.js';
import { translateFile } from './file-review.js';
import { createTranslationsService } from './service.js';
import { checkTranslations, requireTranslatorOf } from './writes.js';

interface TranslateInput {
  recordId: string;
  lang: string;
  texts: Record<string, string>;
  confirm: string[];
}

const paramsOf = (request: FastifyRequest) => request.params as { recordId: string; lang: string };

/** A record's translations in one language, or a translators' file's changes to the collection, as pending changes. */
function reviewed(collection: TranslatedCollection): ReviewedPart {
  return {
    collection,
    actions: {
      translate: {
        async propose(ctx, request, auth) {
          requireTranslatorOf(collection, auth.role);
          const { recordId, lang } = paramsOf(request);
          const body = request.body as SaveTranslationsInput;
          await createTranslationsService(ctx).requireLanguage(lang);
          const part = translatedCollection(ctx, collection);
          const source = (await part.sources(ctx.db, [recordId])).get(recordId);
          if (!source) fail('NOT_FOUND');
          if (source.version !== body.version) fail('VERSION_CONFLICT', undefined, undefined, { currentVersion: source.version });
          checkTranslations(collection, source, body.texts);
          const input: TranslateInput = { recordId, lang, texts: body.texts, confirm: body.confirm };
          return { recordId, recordName: source.name, baseVersion: body.version, input };
        },
        async apply(ctx, change, author, authorRole) {
          requireTranslatorOf(collection, authorRole);
          const input = change.input as TranslateInput;
          await createTranslationsService(ctx).save(collection, { ...input, version: change.baseVersion }, author);
        },
        /** The record as published now, with these translations set. */
        async proposed(ctx, change) {
          const input = change.input as TranslateInput;
          const part = translatedCollection(ctx, collection);
          const base = (await part.snapshots(ctx.db, [input.recordId])).get(input.recordId);
          if (!base) fail('NOT_FOUND');
          const translations = { ...base.translations };
          for (const [field, text] of Object.entries(input.texts)) {
            if (text.trim() === '') delete translations[`${field}@${input.lang}`];
            else translations[`${field}@${input.lang}`] = text.trim();
          }
          return { ...base, translations };
        },
      },
      translate_file: translateFile(collection),
    },
  };
}

export default TRANSLATED_COLLECTIONS.map(reviewed);
