/* The farmer app's scanner models (migration 196). JSON columns are stored as text. */

export interface ScannerModelsTable {
  id: string;
  stage: string;
  number: number;
  /** '<stage>-<number>': what the app reports with each scan. */
  version: string;
  fileKey: string;
  sha256: string;
  size: number;
  /** JSON [1, H, W, 3]. */
  inputShape: string;
  inputType: string;
  /** JSON { scale, zeroPoint } of uint8 pixels (migration 210); null: float32 pixels, or none given. */
  inputQuantization: string | null;
  /** JSON OutputQuantization (migration 205); null: float32 scores. */
  outputQuantization: string | null;
  /** JSON TestVector[] (migration 207): photos at the input size with their expected scores; null until an evaluation makes them. */
  testVectors: string | null;
  /** JSON ContractSearch (migration 208): Check file's trial of pixel contracts, kept at upload; null when none was made. */
  contractSearch: string | null;
  /** JSON PixelContract. */
  contract: string;
  /** JSON Thresholds. */
  thresholds: string;
  /** JSON [{ label, recordId, verdict }] in output order. */
  labels: string;
  note: string;
  recordVersion: number;
  createdBy: string | null;
  createdAt: string;
}

export interface ModelEvaluationsTable {
  id: string;
  modelId: string;
  state: string;
  split: string;
  seed: string;
  /** JSON { train, validation, test }. */
  ratios: string;
  /** sha256 of the sorted "photo id:disease id" lines scored: equal when the photos are. */
  photoSetSha256: string;
  /** sha256 of the pixel contract the photos were prepared with: a publish needs one like the model's now. */
  contractSha256: string;
  /** JSON [photo id, disease id][] in scoring order: a rerun scores exactly these. */
  photoIds: string;
  total: number;
  done: number;
  cancelRequested: number;
  claimedBy: string | null;
  heartbeatAt: string | null;
  accuracy: number | null;
  macroF1: number | null;
  error: string | null;
  createdBy: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** The evaluation set scored (migration 209); null: a split of the training set. */
  evaluationSetId: string | null;
  /** Its name when queued, kept after the set is deleted. */
  evaluationSetName: string | null;
}

export interface ModelPredictionsTable {
  evaluationId: string;
  imageId: string;
  /** The photo's record (its true class). */
  diseaseId: string;
  /** The output index with the highest score. */
  predicted: number;
  confidence: number;
  /** JSON [[index, confidence], …] best first. */
  top: string;
}

export interface ModelPublicationsTable {
  id: string;
  /** Per stage and channel, counting up: the highest is the channel's current state. */
  seq: number;
  stage: string;
  channel: string;
  action: string;
  /** null when the channel was emptied (a pilot ended). */
  modelId: string | null;
  share: number;
  note: string;
  overrideReason: string | null;
  createdBy: string | null;
  createdAt: string;
}

/** A super admin's labelled photos to evaluate on, not farmer content (migration 209). */
export interface EvaluationSetsTable {
  id: string;
  name: string;
  fileName: string;
  /** sha256 of the uploaded ZIP. */
  sha256: string;
  sizeBytes: number;
  photoCount: number;
  /** JSON [{ label, recordId, photos }] sorted by label. */
  labels: string;
  leakCount: number;
  /** JSON LeakPair[] (at most EVALUATION_SET_LIMITS.shownLeaks): its photos that are near-copies of training photos. */
  leaks: string;
  createdBy: string | null;
  createdAt: string;
}

export interface EvaluationSetPhotosTable {
  id: string;
  setId: string;
  /** Its order in the ZIP. */
  position: number;
  /** Its path in the ZIP. */
  fileName: string;
  label: string;
  recordId: string;
  originalKey: string;
  thumbKey: string;
  sha256: string;
  phash: string | null;
  width: number;
  height: number;
}
