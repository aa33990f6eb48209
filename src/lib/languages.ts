import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { TRANSLATED_COLLECTIONS, type TranslatedCollection } from '../../common/languages';
import type {
  Completeness,
  Language,
  RecordTranslations,
  SaveTranslationsInput,
  TranslationImportPreview,
  TranslationImportReport,
  TranslationStatusList,
} from '../../common/schemas/languages';
import { api } from './api';
import { sendForm } from './upload';

export type StatusFilter = 'all' | 'missing' | 'stale';
export type FileFormat = 'xliff' | 'csv' | 'xlsx';

/**
 * Keys start with a live topic: 'languages' (the list, published when a super admin changes it),
 * the record's collection (its translations and the status lists: a save or an English edit of
 * one of its records refreshes them), 'dashboard' (completeness: refreshed after every change).
 */
export const languageKeys = {
  list: ['languages', 'list'] as const,
  completeness: ['dashboard', 'translation-completeness'] as const,
  record: (collection: TranslatedCollection, id: string) => [collection, 'translations', id] as const,
  status: (collection: TranslatedCollection, lang: string, filter: StatusFilter) =>
    [collection, 'translation-status', lang, filter] as const,
};

const recordPath = (collection: TranslatedCollection, id: string) => `/api/translations/${collection}/${encodeURIComponent(id)}`;

/** Every language (in use or not); English, the source, is not one of them. */
export function useLanguages() {
  return useQuery({
    queryKey: languageKeys.list,
    queryFn: async ({ signal }) => (await api<{ items: Language[] }>('/api/languages', { signal })).items,
    staleTime: 60_000,
  });
}

/** Per language and collection: fields translated, stale (English changed since) and missing. */
export function useCompleteness() {
  return useQuery({
    queryKey: languageKeys.completeness,
    queryFn: ({ signal }) => api<Completeness>('/api/translations/completeness', { signal }),
  });
}

/** A collection's records in a language: all, or those with fields missing, or needing an update. */
export function useTranslationStatus(collection: TranslatedCollection, lang: string | null, filter: StatusFilter) {
  return useQuery({
    queryKey: languageKeys.status(collection, lang ?? '', filter),
    queryFn: ({ signal }) =>
      api<TranslationStatusList>(`/api/translations/${collection}/status?lang=${encodeURIComponent(lang!)}&filter=${filter}`, { signal }),
    enabled: lang !== null,
    placeholderData: (previous) => (previous?.collection === collection ? previous : undefined),
    staleTime: 0,
  });
}

/** The editor's data: per field the English and each language's translation with its stale mark. */
export function useRecordTranslations(collection: TranslatedCollection, id: string) {
  return useQuery({
    queryKey: languageKeys.record(collection, id),
    queryFn: ({ signal }) => api<RecordTranslations>(recordPath(collection, id), { signal }),
    staleTime: 0,
  });
}

/** What a save answers while its collection's changes need review (202): the pending change and REVIEW_TEXTS.sentForReview. */
export interface SentForReview {
  review: { id: string };
  message: string;
}
export type SaveAnswer = { saved: RecordTranslations } | { review: SentForReview };

/** Everything a translation change may move: its collection's queries (records, lists, status) and completeness. */
function refreshTranslated(queryClient: QueryClient, collections: readonly TranslatedCollection[]): void {
  for (const collection of collections) void queryClient.invalidateQueries({ queryKey: [collection] });
  void queryClient.invalidateQueries({ queryKey: languageKeys.completeness });
}

/** A record's translations in one language: texts ('' removes one) and fields confirmed, over the record's version. */
export function useSaveTranslations(collection: TranslatedCollection, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ lang, body }: { lang: string; body: SaveTranslationsInput }): Promise<SaveAnswer> => {
      const answer = await api<RecordTranslations | SentForReview>(`${recordPath(collection, id)}/${encodeURIComponent(lang)}`, {
        method: 'PUT',
        body,
      });
      return 'review' in answer ? { review: answer } : { saved: answer };
    },
    onSuccess: (answer) => {
      if ('saved' in answer) queryClient.setQueryData(languageKeys.record(collection, id), answer.saved);
      refreshTranslated(queryClient, [collection]);
    },
  });
}

function useStoreLanguages() {
  const queryClient = useQueryClient();
  return (list: { items: Language[] }) => {
    queryClient.setQueryData(languageKeys.list, list.items);
    // The editors' pickers, the completeness and the record views name the languages too.
    refreshTranslated(queryClient, TRANSLATED_COLLECTIONS);
  };
}

export function useAddLanguage() {
  const store = useStoreLanguages();
  return useMutation({
    mutationFn: (input: { code: string; name: string }) => api<{ items: Language[] }>('/api/languages', { method: 'POST', body: input }),
    onSuccess: store,
  });
}

export function useUpdateLanguage() {
  const store = useStoreLanguages();
  return useMutation({
    mutationFn: ({ code, name, enabled }: Language) =>
      api<{ items: Language[] }>(`/api/languages/${encodeURIComponent(code)}`, { method: 'PUT', body: { name, enabled } }),
    onSuccess: store,
  });
}

/** A language's translators' file: a plain download link (the server streams it as an attachment). */
export const translationFileUrl = (lang: string, format: FileFormat) =>
  `/api/translations/export?lang=${encodeURIComponent(lang)}&format=${format}`;

function fileForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

/** The dry run of a translators' file: every unit's result, nothing saved. */
export function previewTranslationImport(
  lang: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<TranslationImportPreview> {
  return sendForm<TranslationImportPreview>(
    `/api/translations/import/preview?lang=${encodeURIComponent(lang)}`,
    fileForm(file),
    onProgress,
    signal,
  );
}

/** The import: all or nothing (stop), or the units without errors (skip). */
export function useImportTranslations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      lang,
      file,
      onErrors,
      onProgress,
      signal,
    }: {
      lang: string;
      file: File;
      onErrors: 'stop' | 'skip';
      onProgress: (fraction: number) => void;
      signal: AbortSignal;
    }) =>
      sendForm<TranslationImportReport>(
        `/api/translations/import?lang=${encodeURIComponent(lang)}&onErrors=${onErrors}`,
        fileForm(file),
        onProgress,
        signal,
      ),
    onSuccess: () => refreshTranslated(queryClient, TRANSLATED_COLLECTIONS),
  });
}
