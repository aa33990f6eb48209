/**
 * The farmer app's scanner models: the two stages it runs, how a photo is prepared for them,
 * the limits of an upload and an evaluation, and the Models screen's texts. Shared by browser
 * and server.
 */

export const MODEL_STAGES = ['disease', 'plant'] as const;
export type ModelStage = (typeof MODEL_STAGES)[number];

export const MODEL_CHANNELS = ['live', 'pilot'] as const;
export type ModelChannel = (typeof MODEL_CHANNELS)[number];

/** How pixel values (0–255) become the model's input. */
export const PIXEL_SCALINGS = ['0-255', '0-1', '-1-1', 'mean-std'] as const;
export type PixelScaling = (typeof PIXEL_SCALINGS)[number];

/** How a photo is brought to the input size (bilinear in each case). */
export const RESIZE_METHODS = ['stretch', 'center-crop', 'letterbox'] as const;
export type ResizeMethod = (typeof RESIZE_METHODS)[number];

/** What a plant check's label means, when the stage is the plant check. */
export const PLANT_VERDICTS = ['rice-plant', 'not-rice-plant'] as const;
export type PlantVerdict = (typeof PLANT_VERDICTS)[number];

/** The photos an evaluation scores: one split of the training set (same clusters and seed as its ZIP), or all. */
export const EVALUATION_SPLITS = ['test', 'validation', 'train', 'all'] as const;
export type EvaluationSplit = (typeof EVALUATION_SPLITS)[number];

export const EVALUATION_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type EvaluationState = (typeof EVALUATION_STATES)[number];

export const MODEL_LIMITS = {
  /** The share of answered scans recommended thresholds must get right (MODEL_TARGET_ACCURACY's default). */
  targetAccuracy: 0.95,
  /** Check file's search for the pixel contract: held-out photos tried per record, and the time it may take. */
  contractSearchPerClass: 10,
  contractSearchMs: 60_000,
  /** After each photo the search rests this many times as long as the photo took (less than an evaluation: it has a deadline). */
  contractSearchRest: 0.5,
  /** A contract that scored more than this below the best tried is kept only when the upload says so (acceptWorseContract). */
  contractWorseBy: 0.1,
  /** Photos the farmer app's payload carries to check its pixel preparation, and how far a score may be off. */
  testVectors: 3,
  testVectorTolerance: 0.02,
  /** A test vector's photo leads its second-best score by at least this much, so a small difference cannot change its label. */
  testVectorMinMargin: 0.2,
  /** Largest .tflite taken (the app's models are a few MB to a few tens of MB). */
  maxBytes: 64 * 1024 * 1024,
  /** Largest labels file. */
  maxLabelsBytes: 64 * 1024,
  maxLabels: 500,
  maxLabelLength: 120,
  maxNoteLength: 1000,
  /** The override reason must say something. */
  minReasonLength: 10,
  /** Predictions kept per photo. */
  topK: 3,
  /**
   * After each photo the evaluation rests this many times as long as the photo took, so it
   * takes about half a core and the console's other requests keep theirs.
   */
  restRatio: 1,
  /** Photos prepared and scored per round trip to the evaluation worker. */
  batch: 16,
  /** Thumbnails shown for one confusion-matrix cell or changed verdict list. */
  cellPhotos: 200,
  /** The pilot's share of installs, in whole percent. */
  minPilotShare: 1,
  maxPilotShare: 50,
  /** A new model's thresholds, as the farmer app's disease classifier applies them. */
  defaultConfidence: 0.5,
  defaultMargin: 0,
  /** An evaluation whose instance stopped beating for this long is taken up again by another. */
  staleAfterMs: 2 * 60_000,
  /** How often a running evaluation says it is alive. */
  heartbeatMs: 20_000,
  /** An evaluation that could not score more than this share of its photos failed. */
  maxSkippedShare: 0.01,
} as const;

/** The margins the recommendation tries (with every confidence in hundredths), and the publish dialog offers. */
export const THRESHOLD_MARGINS = [0, 0.05, 0.1, 0.15, 0.2, 0.3] as const;

/**
 * A class whose scores rest on fewer of its photos than this is marked "few photos" on the
 * report: one photo more or less moves its score a lot.
 */
export const FEW_PHOTOS_BELOW = 20;

/** ImageNet's mean and standard deviation per channel (the plant check's scaling in the app). */
export const IMAGENET_MEAN_STD = { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] } as const;

/** The version name of a stage's nth model ('disease-3'): what the app reports with each scan. */
export function modelVersionName(stage: ModelStage, number: number): string {
  return `${stage}-${number}`;
}

export const MODELS_PATHS = {
  list: '/api/models',
  inspect: '/api/models/inspect',
  publicCurrent: '/api/public/v1/models/current',
  publicFile: '/api/public/v1/models/:version/file',
} as const;

export const MODEL_TEXTS = {
  title: 'Scanner models',
  nav: 'Scanner models',
  intro:
    'The models the farmer app runs on the phone: upload one, check it on the held-out photos, then ' +
    'publish it to a pilot share of installs or to everyone. Rolling back is one click.',
  stage: { disease: 'Disease classifier', plant: 'Plant check' } satisfies Record<ModelStage, string>,
  channel: { live: 'Live', pilot: 'Pilot' } satisfies Record<ModelChannel, string>,
  scaling: {
    '0-255': '0 to 255 (pixel values as they are)',
    '0-1': '0 to 1 (value ÷ 255)',
    '-1-1': '−1 to 1 ((value ÷ 255 − 0.5) × 2)',
    'mean-std': 'Mean and standard deviation per channel ((value ÷ 255 − mean) ÷ std)',
  } satisfies Record<PixelScaling, string>,
  resize: {
    stretch: "Stretch to the input size (as Android's createScaledBitmap)",
    'center-crop': "Crop the centre to the input's shape, then resize",
    letterbox: 'Fit inside and pad with black',
  } satisfies Record<ResizeMethod, string>,
  verdict: { 'rice-plant': 'Rice plant', 'not-rice-plant': 'Not a rice plant' } satisfies Record<PlantVerdict, string>,
  split: {
    test: 'Test split of the training set',
    validation: 'Validation split',
    train: 'Training split',
    all: 'Every photo',
  } satisfies Record<EvaluationSplit, string>,
  state: { queued: 'Waiting', running: 'Running', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' } satisfies Record<
    EvaluationState,
    string
  >,
  upload: 'Upload model',
  check: 'Check file',
  noFile: 'Choose a .tflite model file.',
  tooLarge: `The model file is larger than ${MODEL_LIMITS.maxBytes / 1024 / 1024} MB.`,
  labelsTooLarge: `The labels file is larger than ${MODEL_LIMITS.maxLabelsBytes / 1024} KB.`,
  noLabels: 'This model carries no labels of its own: add its labels file (one label a line, in output order).',
  labelCount: (labels: number, outputs: number) =>
    `The model gives ${outputs} scores but ${labels === 1 ? 'one label is' : `${labels} labels are`} given: they must match one for one, in output order.`,
  duplicateLabel: (label: string) => `The label "${label}" is given twice.`,
  unmapped: (labels: string[]) =>
    `${labels.length === 1 ? 'This label has' : 'These labels have'} no record: ` +
    `${labels.map((l) => `"${l}"`).join(', ')}. Choose the disease or training class each one means.`,
  unknownRecord: (labels: string[]) =>
    `${labels.length === 1 ? 'This label is' : 'These labels are'} mapped to a record that is not live: ${labels.map((l) => `"${l}"`).join(', ')}.`,
  recordTwice: (name: string) => `Two labels are mapped to "${name}": each record may have one label.`,
  meanStdNeeded: 'Mean and standard deviation need three values each (red, green, blue); every standard deviation above 0.',
  metaInvalid: 'The model\'s settings could not be read: send them as the "meta" field (JSON) before the file.',
  evaluate: 'Evaluate',
  evaluating: (done: number, total: number) => `Scoring photo ${done.toLocaleString('en-PH')} of ${total.toLocaleString('en-PH')}`,
  cancel: 'Cancel',
  noPhotos: 'There are no photos in this split of the training set to score.',
  evaluationSetGone: 'That evaluation set no longer exists.',
  evaluationRunning: 'This model is being evaluated already.',
  evaluationNotRunning: 'This evaluation is not running.',
  evaluationFailed: {
    modelGone: 'The model is gone.',
    load: (reason: string) => `The model could not be loaded: ${reason}`,
    skipped: (skipped: number, total: number) =>
      `${skipped} of ${total} photos could not be read or scored, so the numbers would not be the model's: run it again.`,
    someSkipped: (skipped: number) => `${skipped} photo(s) could not be read and were left out.`,
  },
  notLoadable: (reason: string) => `The TensorFlow Lite runtime could not load this model: ${reason}`,
  /** A pixel contract that scored clearly worse than the best tried (accuracies 0–1). */
  worseContract: (chosen: number, best: number) =>
    `The way chosen got ${(chosen * 100).toFixed(1)} % of the held-out photos right, the best ${(best * 100).toFixed(1)} %: ` +
    'a wrong way is wrong on every phone. Press Upload again to keep it.',
  contractLocked:
    'This model is published: its pixel contract is what phones use and what it was evaluated with. Upload it again to change it.',
  labelTooLong: `A label may have at most ${MODEL_LIMITS.maxLabelLength} characters.`,
  labelsEncoding: 'The labels file must be plain text (UTF-8 or UTF-16), one label a line.',
  /** An "index label" or CSV line whose index is not its place in the file. */
  labelIndex: (line: number, text: string, expected: number) =>
    `Line ${line} of the labels ("${text}") has the wrong number: the labels must be numbered in output order, line ${line} as ${expected}.`,
  labelControls: (codes: string) =>
    `A label holds hidden control characters (${codes}); labels reach the farmer app, so remove them and upload again.`,
  /** A plant check is scored on both kinds of photo. */
  plantNeedsBoth:
    'A plant check is scored on photos of training classes marked "Not a rice plant" and on the rice photos of every other ' +
    'disease and training class; this split has only one kind. Mark a training class "Not a rice plant" (Diseases) and give it photos.',
  publish: 'Publish',
  rollback: 'Roll back',
  rollbackNone: 'There is no earlier live model to roll back to.',
  endPilot: 'End pilot',
  noPilot: 'No model is in pilot.',
  noteNeeded: 'Say why in a note (what changed, what was checked).',
  reasonNeeded: `Write the reason for publishing anyway (at least ${MODEL_LIMITS.minReasonLength} characters).`,
  refused: {
    unmappedLabels: (labels: string[]) => `Labels without a live record: ${labels.map((l) => `"${l}"`).join(', ')}.`,
    noEvaluation:
      'This model has no finished evaluation on the current training set (photos were added or removed since, or it was never evaluated).',
  },
  alreadyLive: 'This model is live already.',
  pilotIsLive: 'This model is live: a pilot must differ from the live model.',
  report: {
    accuracy: 'Accuracy',
    macroF1: 'Balanced score (F1)',
    photos: 'Photos',
    perClass: 'Per class',
    confusion: 'Confusion matrix',
    coverage: 'Accuracy against coverage',
    comparison: 'Compared with the live model',
    changed: 'Photos whose verdict changed',
    csv: 'Predictions (CSV)',
    noLive: 'No live model has an evaluation on these photos to compare with.',
  },
  install: {
    noModel: 'No model is published for this stage yet.',
  },
  audit: {
    collection: 'scanner_models',
    uploaded: (version: string) => `Uploaded scanner model ${version}`,
    mapped: (version: string) => `Changed the label mapping of scanner model ${version}`,
    settings: (version: string) => `Changed the settings of scanner model ${version}`,
    published: (version: string, channel: ModelChannel) =>
      `Published scanner model ${version} to ${channel === 'live' ? 'everyone (live)' : 'the pilot'}`,
    override: (version: string) => `Published scanner model ${version} despite failed checks`,
    rolledBack: (from: string, to: string) => `Rolled the live scanner model back from ${from} to ${to}`,
    pilotEnded: (version: string) => `Ended the pilot of scanner model ${version}`,
    evaluated: (version: string) => `Evaluated scanner model ${version}`,
    cancelled: (version: string) => `Cancelled an evaluation of scanner model ${version}`,
  },
} as const;
