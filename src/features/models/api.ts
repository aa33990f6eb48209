import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MODELS_PATHS, type EvaluationSplit, type ModelChannel, type ModelStage } from '../../../common/models';
import type {
  EvaluationReport,
  EvaluationSummary,
  ModelInspection,
  ModelsOverview,
  ModelUploadMeta,
  PixelContract,
  PredictionPhoto,
  ScannerModel,
  Thresholds,
} from '../../../common/schemas/models';
import type { CatalogList } from '../../../common/schemas/catalog';
import { EVALUATION_SET_LIMITS, EVALUATION_SETS_PATH } from '../../../common/evaluation-sets';
import type { EvaluationSet } from '../../../common/schemas/evaluation-sets';
import { api, ApiError } from '../../lib/api';
import { sendForm } from '../../lib/upload';

// Keys start with 'scanner_models': the server publishes that topic after every change and every
// step of an evaluation, and the live stream refreshes them (src/lib/queries.ts).
const TOPIC = 'scanner_models';
const overviewKey = [TOPIC, 'overview'] as const;
const reportKey = (id: string, evaluationId: string) => [TOPIC, 'report', id, evaluationId] as const;

const base = MODELS_PATHS.list;
const modelPath = (id: string) => `${base}/${encodeURIComponent(id)}`;
const evaluationPath = (id: string, evaluationId: string) => `${modelPath(id)}/evaluations/${encodeURIComponent(evaluationId)}`;

/** The .tflite file, as a download link. */
export const modelFileUrl = (id: string) => `${modelPath(id)}/file`;
/** Every photo's prediction of an evaluation, as a CSV download link. */
export const predictionsCsvUrl = (id: string, evaluationId: string) => `${evaluationPath(id, evaluationId)}/predictions.csv`;
/** The report screen of an evaluation, below the models screen. */
export const reportRoute = (id: string, evaluationId: string) =>
  `/dashboard/scanner_models/${encodeURIComponent(id)}/evaluations/${encodeURIComponent(evaluationId)}`;

const isActive = (e: EvaluationSummary) => e.state === 'queued' || e.state === 'running';
export const runningEvaluation = (model: ScannerModel) => model.evaluations.find(isActive) ?? null;

/**
 * Every model and publication. Live events refresh it; while an evaluation is queued or running
 * it is also asked for every 2 s, in case the live stream is down.
 */
export function useModelsOverview() {
  return useQuery({
    queryKey: overviewKey,
    queryFn: ({ signal }) => api<ModelsOverview>(base, { signal }),
    refetchInterval: (query) => (query.state.data?.models.some((m) => m.evaluations.some(isActive)) ? 2000 : false),
    staleTime: 0,
  });
}

export function useEvaluationReport(id: string, evaluationId: string, enabled = true) {
  return useQuery({
    queryKey: reportKey(id, evaluationId),
    queryFn: ({ signal }) => api<EvaluationReport>(evaluationPath(id, evaluationId), { signal }),
    enabled,
  });
}

/** The photos of one confusion-matrix cell, or those whose verdict changed against the live model. */
export type PhotoSelection = { actual: string; predicted: string } | { changed: 'fixed' | 'broken' | 'changed' };

export function useEvaluationPhotos(id: string, evaluationId: string, selection: PhotoSelection | null) {
  return useQuery({
    queryKey: [TOPIC, 'photos', id, evaluationId, selection],
    enabled: selection !== null,
    queryFn: ({ signal }) =>
      api<{ photos: PredictionPhoto[]; total: number }>(
        `${evaluationPath(id, evaluationId)}/photos?${new URLSearchParams(selection as Record<string, string>)}`,
        { signal },
      ),
    placeholderData: (previous) => previous,
  });
}

/** A record a label can mean (a disease or training class), as the mapping's choices list it. */
export interface RecordOption {
  id: string;
  name: string;
  localName: string | null;
  trainingClass: boolean;
}

/**
 * The live diseases and training classes for the mapping of a stored model (the upload's check
 * answers them itself): read from the diseases list, every page; refreshed when diseases change.
 */
export function useRecordOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['rice_local_diseases', 'model-records'],
    enabled,
    queryFn: async ({ signal }) => {
      const records: RecordOption[] = [];
      for (let offset = 0; ;) {
        const page = await api<CatalogList>(`/api/rice_diseases?offset=${offset}&limit=100`, { signal });
        records.push(
          ...page.items.map((e) => ({ id: e.id, name: e.name, localName: e.localName || null, trainingClass: e.isTrainingClass })),
        );
        offset += page.items.length;
        if (page.items.length === 0 || offset >= page.total) return records;
      }
    },
  });
}

export interface ModelFiles {
  model: File;
  labels: File | null;
}

/** The multipart body: "meta" (JSON) first, then the labels file, then the model, as the server reads them. */
function modelForm(meta: object, files: ModelFiles): FormData {
  const form = new FormData();
  form.append('meta', JSON.stringify(meta));
  if (files.labels) form.append('labels', files.labels, files.labels.name);
  form.append('model', files.model, files.model.name);
  return form;
}

/** Reads a model file on the server (nothing is stored): its input, outputs, labels and suggested mapping. */
export function inspectModel(
  stage: ModelStage,
  files: ModelFiles,
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<ModelInspection> {
  return sendForm<ModelInspection>(MODELS_PATHS.inspect, modelForm({ stage }, files), onProgress, signal);
}

function useStoreOverview() {
  const queryClient = useQueryClient();
  return {
    set: (overview: ModelsOverview) => queryClient.setQueryData(overviewKey, overview),
    refresh: () => queryClient.invalidateQueries({ queryKey: overviewKey }),
  };
}

export function useUploadModel() {
  const store = useStoreOverview();
  return useMutation({
    mutationFn: ({
      meta,
      files,
      onProgress,
      signal,
    }: {
      meta: ModelUploadMeta;
      files: ModelFiles;
      onProgress: (fraction: number) => void;
      signal: AbortSignal;
    }) => sendForm<ScannerModel>(base, modelForm(meta, files), onProgress, signal),
    onSuccess: () => {
      void store.refresh();
    },
  });
}

export function useSaveMapping() {
  const store = useStoreOverview();
  return useMutation({
    mutationFn: ({ id, version, mapping }: { id: string; version: number; mapping: ModelUploadMeta['mapping'] }) =>
      api<ScannerModel>(`${modelPath(id)}/mapping`, { method: 'PUT', body: { version, mapping } }),
    // After a conflict too: the dialog offers the newer version.
    onSettled: () => {
      void store.refresh();
    },
  });
}

export function useSaveSettings() {
  const store = useStoreOverview();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; version: number; contract: PixelContract; thresholds: Thresholds; note: string }) =>
      api<ScannerModel>(`${modelPath(id)}/settings`, { method: 'PUT', body }),
    onSettled: () => {
      void store.refresh();
    },
  });
}

export function useStartEvaluation() {
  const store = useStoreOverview();
  return useMutation({
    mutationFn: ({
      id,
      split,
      sameAs,
      evaluationSetId,
    }: {
      id: string;
      split: EvaluationSplit;
      sameAs?: string;
      evaluationSetId?: string;
    }) =>
      api<EvaluationSummary>(`${modelPath(id)}/evaluations`, {
        method: 'POST',
        body: { split, ...(sameAs ? { sameAs } : {}), ...(evaluationSetId ? { evaluationSetId } : {}) },
      }),
    onSuccess: () => {
      void store.refresh();
    },
  });
}

export function useCancelEvaluation() {
  const store = useStoreOverview();
  return useMutation({
    mutationFn: ({ id, evaluationId }: { id: string; evaluationId: string }) =>
      api<EvaluationSummary>(`${evaluationPath(id, evaluationId)}/cancel`, { method: 'POST' }),
    onSuccess: () => {
      void store.refresh();
    },
  });
}

export interface PublishRequest {
  channel: ModelChannel;
  share?: number;
  note: string;
  overrideReason?: string;
  thresholds?: { confidence: number; margin: number };
}

export function usePublish() {
  const store = useStoreOverview();
  return useMutation({
    mutationFn: ({ id, ...body }: PublishRequest & { id: string }) =>
      api<ModelsOverview>(`${modelPath(id)}/publish`, { method: 'POST', body }),
    onSuccess: store.set,
  });
}

/** The checks a refused publish names (409 with `checks`), or null for any other failure. */
export function failedChecks(err: unknown): string[] | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const checks = err.body?.checks;
  return Array.isArray(checks) && checks.every((c) => typeof c === 'string') ? checks : null;
}

export function useRollback() {
  const store = useStoreOverview();
  return useMutation({
    mutationFn: (body: { stage: ModelStage; note: string }) => api<ModelsOverview>(`${base}/rollback`, { method: 'POST', body }),
    onSuccess: store.set,
  });
}

export function useEndPilot() {
  const store = useStoreOverview();
  return useMutation({
    mutationFn: (body: { stage: ModelStage }) => api<ModelsOverview>(`${base}/end-pilot`, { method: 'POST', body }),
    onSuccess: store.set,
  });
}

// Evaluation sets: their key starts with the same topic, which the server publishes when one is added or deleted.
const setsKey = [TOPIC, 'evaluation-sets'] as const;

export function useEvaluationSets() {
  return useQuery({
    queryKey: setsKey,
    queryFn: ({ signal }) => api<{ sets: EvaluationSet[] }>(EVALUATION_SETS_PATH, { signal }),
  });
}

export function useUploadEvaluationSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      name,
      file,
      onProgress,
      signal,
    }: {
      name: string;
      file: File;
      onProgress: (fraction: number) => void;
      signal: AbortSignal;
    }) => {
      const form = new FormData();
      form.append('name', name);
      form.append('file', file, file.name);
      // The server cleans, sizes and fingerprints every photo before it answers: up to 2,000 of them.
      return sendForm<EvaluationSet>(EVALUATION_SETS_PATH, form, onProgress, signal, {
        answerWithinMs: EVALUATION_SET_LIMITS.answerWithinMs,
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: setsKey }),
  });
}

export function useDeleteEvaluationSet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<null>(`${EVALUATION_SETS_PATH}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: setsKey }),
  });
}
