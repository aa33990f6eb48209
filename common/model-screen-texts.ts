import { FEW_PHOTOS_BELOW, MODEL_LIMITS, MODEL_TEXTS, type ModelChannel, type ModelStage } from './models.js';

/**
 * The Scanner models screen's own texts (upload, mapping, settings, publishing, the report), in
 * the browser only; MODEL_TEXTS (common/models.ts) holds those the server answers with too.
 */

const CHANNEL_NAMES = ['red', 'green', 'blue'] as const;
const percent = (value: number) => `${(value * 100).toFixed(1)} %`;

export const MODEL_SCREEN_TEXTS = {
  loadFailed: 'The scanner models could not be loaded.',
  tryAgain: 'Try again',
  saving: 'Saving…',
  save: 'Save',
  stagePanel: {
    /** When and by whom the model got its place: published, or rolled back to. */
    since: (action: string, at: string, by: string | null) => `${action} ${at}${by ? ` by ${by}` : ''}`,
    share: (share: number) => `${share} % of installs`,
    rollbackTitle: 'Roll back the live model?',
    rollbackText: (version: string) =>
      `${version} stops being live and the model that was live before it takes its place, on every install at its next check.`,
    rollbackNote: 'Note (optional)',
    rolledBack: 'The live model was rolled back.',
    endPilotTitle: 'End the pilot?',
    endPilotText: (version: string) =>
      `Installs in the pilot go back to the live model. ${version} stays uploaded and can be published again.`,
    pilotEnded: 'The pilot has ended.',
  },
  list: {
    title: 'Uploaded models',
    empty: 'No model has been uploaded yet: upload the first one.',
    uploaded: (at: string, by: string | null) => `Uploaded ${at}${by ? ` by ${by}` : ''}`,
    size: 'Size',
    sha256: 'File fingerprint',
    labelsTerm: 'Labels',
    /** The kept Check file trial of the model's pixel contract. */
    contractTried: 'Pixel contract',
    contractTrial: (chosen: number | null, best: number, photos: number) =>
      `${chosen === null ? 'not among the ways tried' : `${percent(chosen)} right`} on ${photos} held-out photos` +
      (chosen !== null && chosen >= best ? ' (the best tried)' : `, the best way tried ${percent(best)}`),
    labelsWarning: (count: number) => `${count} without a live record`,
    evaluation: 'Latest evaluation',
    noEvaluation: 'Not evaluated yet.',
    notCurrent: 'The training set has changed since: evaluate again before publishing.',
    result: (accuracy: number | null, macroF1: number | null) =>
      `Accuracy ${accuracy === null ? '–' : percent(accuracy)} · balanced score ${macroF1 === null ? '–' : macroF1.toFixed(3)}`,
    onSplit: (split: string, at: string) => `${split}, ${at}`,
    failed: (error: string | null) => `The evaluation failed${error ? `: ${error}` : '.'}`,
    cancelled: 'The last evaluation was cancelled.',
    progress: (version: string) => `Evaluation of ${version}`,
    actions: { report: 'Report', publish: 'Publish…', mapping: 'Mapping…', settings: 'Settings…', download: 'Download' },
    actionsLabel: (version: string) => `Actions for ${version}`,
    evaluateTitle: (version: string) => `Evaluate ${version}`,
    evaluateText:
      "The model scores the training set's photos on the server, with the same clusters and seed as the " +
      "training set's download; the page follows its progress.",
    /** A plant check's evaluation: the verdict classes it is scored on. */
    evaluatePlantText:
      "The plant check scores the training set's photos on the server as two classes: the photos of training classes " +
      'marked "Not a rice plant" against the photos of every other disease and training class. The page follows its progress.',
    splitLabel: 'Photos to score',
    trainingSplits: 'The training set',
    start: 'Start',
    started: 'The evaluation has started.',
    cancelDone: 'The evaluation was cancelled.',
  },
  form: {
    uploadTitle: 'Upload a scanner model',
    uploadIntro:
      'Choose the .tflite file, say how the app prepares a photo for it, then check the file: its input ' +
      'and labels are read from it and each label is matched to a disease.',
    stage: 'Stage',
    modelFile: 'Model file (.tflite)',
    labelsFile: 'Labels file (optional)',
    labelsHint:
      'labels.txt: one label a line in output order ("0 Rice Blast" lines and CSV with an index column are read too). ' +
      'Only for a model that carries no labels of its own.',
    chosen: (name: string, size: string) => `${name} (${size})`,
    contract: 'How a photo becomes the input',
    scaling: 'Pixel scaling',
    resize: 'Resizing',
    mean: (channel: number) => `Mean (${CHANNEL_NAMES[channel]})`,
    std: (channel: number) => `Standard deviation (${CHANNEL_NAMES[channel]})`,
    meanStdHint: "Prefilled with ImageNet's values.",
    thresholds: 'Thresholds',
    confidence: 'Confidence threshold',
    confidenceHint: 'The app names a disease only at or above this score (0 to 1).',
    margin: 'Margin',
    marginHint: '…and only when the best score leads the second-best by at least this much (0 to 1).',
    note: 'Note',
    noteHint: 'What this model is: how it was trained, on which photos.',
    numberNeeded: 'Enter a number from 0 to 1.',
    noteTooLong: `The note may have at most ${MODEL_LIMITS.maxNoteLength} characters.`,
    checking: 'The server is reading the model…',
    storing: 'The server is storing the model…',
    sending: (done: number) => `Sending the file: ${done} %`,
    recheck: 'The file, the labels file or the stage changed: check the file again.',
    checkFirst: 'Check the file first: its labels are mapped before it is uploaded.',
    uploaded: (version: string) => `Uploaded ${version}.`,
    facts: 'What the file holds',
    inputSize: 'Input',
    inputDescription: (shape: number[], type: string) => {
      const [, height, width, channels] = shape.length === 4 ? shape : [1, ...shape];
      return height !== undefined && width !== undefined
        ? `${width} × ${height} px, ${channels ?? 1} channels, ${type}`
        : `${shape.join(' × ')}, ${type}`;
    },
    contractSearch: 'How a photo becomes the input, tried',
    contractSearchIntro: (photos: number) =>
      `Scored on ${photos} held-out photos of the diseases its labels mean, each way of preparing a photo; the best is chosen below.`,
    contractTrial: (scaling: string, resize: string) => `${scaling}; ${resize}`,
    contractBest: 'best',
    contractStated: "the model's metadata",
    outputs: 'Scores',
    /** The scores' count, and for 8-bit scores how they are read. */
    outputDescription: (count: number, q: { type: string; scale: number; zeroPoint: number } | null) =>
      q ? `${count}, as ${q.type} numbers (score = ${q.scale.toPrecision(3)} × (value − ${q.zeroPoint}))` : `${count}`,
    operators: 'Operators',
    size: 'Size',
    sha256: 'File fingerprint',
    labelsFrom: { metadata: "Labels from the model's metadata", 'labels file': 'Labels from the labels file', given: 'Labels as given' },
  },
  mapping: {
    title: (version: string) => `Label mapping: ${version}`,
    intro:
      'Each output of the model names a disease or training class (or, for the plant check, a verdict). Suggestions come from the names; check every row.',
    caption: 'What each label means',
    index: '#',
    label: 'Label',
    target: 'Means',
    choose: 'Choose…',
    chooseFor: (label: string) => `What "${label}" means`,
    diseases: 'Diseases',
    trainingClasses: 'Training classes',
    notLive: '(not live)',
    matchedBy: {
      name: 'by name',
      'local name': 'by local name',
      label: 'by label',
      verdict: 'by verdict',
      given: 'as given',
      none: 'no match',
    },
    saved: 'The label mapping was saved.',
    loadingRecords: 'Loading the diseases…',
  },
  settings: {
    title: (version: string) => `Settings: ${version}`,
    saved: 'The settings were saved.',
  },
  publishing: {
    title: (version: string) => `Publish ${version}`,
    channel: 'Publish to',
    channelHint: { live: 'Every install of the app', pilot: 'A share of installs, to try it first' } satisfies Record<ModelChannel, string>,
    share: 'Pilot share (% of installs)',
    shareInvalid: `Enter a whole number from ${MODEL_LIMITS.minPilotShare} to ${MODEL_LIMITS.maxPilotShare}.`,
    note: 'Note',
    noteHint: 'What changed and what was checked; kept with the publication.',
    checksFailed: 'The server refused: these checks failed.',
    override: 'Publish anyway',
    reason: 'Reason for publishing anyway',
    reasonHint: 'Kept with the publication and in the history, highlighted.',
    published: (version: string, channel: ModelChannel) =>
      `${version} is published to ${channel === 'live' ? 'every install' : 'the pilot'}.`,
    thresholds: { disease: 'When the app names a disease', plant: "When the app gives the plant check's verdict" } satisfies Record<
      ModelStage,
      string
    >,
    fromRecommendation: (target: number) => `Set to the thresholds that reach ${percent(target)} right on the evaluated photos.`,
    fromModel: "The model's thresholds now.",
    estimate: (coverage: number, accuracy: number | null) =>
      `On the evaluated photos the app would answer ${percent(coverage)} of them` +
      (accuracy === null ? '.' : `, ${percent(accuracy)} of those rightly.`),
    noEstimate: (margins: readonly number[]) =>
      `The evaluation shows the effect of margins of ${margins.map((m) => m.toFixed(2)).join(', ')} and the model's own.`,
    missesTarget: (target: number) => `Below the target of ${percent(target)} right: farmers would get more wrong answers.`,
  },
  history: {
    title: 'Publications',
    empty: 'Nothing has been published yet.',
    action: { publish: 'Published', rollback: 'Rolled back', 'end-pilot': 'Ended the pilot' },
    by: (at: string, by: string | null) => `${at}${by ? ` · ${by}` : ''}`,
    override: 'Published despite failed checks:',
  },
  report: {
    back: 'Scanner models',
    title: (version: string) => `Evaluation of ${version}`,
    rerun: 'Run again on these photos',
    loadFailed: 'The report could not be loaded.',
    notDone: (state: string) => `This evaluation is not finished (${state.toLowerCase()}): its report follows when it is done.`,
    summary: 'Summary',
    weakest: (name: string, f1: number, photos: number) =>
      `Weakest: ${name}, F1 ${f1.toFixed(2)} on ${photos} ${photos === 1 ? 'photo' : 'photos'}`,
    weakestHelp: 'The per-class table lists the weakest classes first.',
    noWeakClass: 'No weak class: every class scores F1 1.00, each photo named rightly.',
    accuracyHelp: (photos: number) =>
      `Of all ${photos.toLocaleString('en-PH')} ${photos === 1 ? 'photo' : 'photos'}, the share whose first choice was right, ` +
      `however unsure the model was. The app's own answers are under ${MODEL_TEXTS.report.coverage}.`,
    balancedHelp: "Each class's F1 averaged, so a class with few photos counts as much as a large one.",
    technical: 'Technical details',
    seed: 'Split key',
    ratios: 'Split shares',
    ratiosValue: (r: { train: number; validation: number; test: number }) =>
      `training ${percent(r.train)}, validation ${percent(r.validation)}, test ${percent(r.test)}`,
    modelSha: 'Model file fingerprint',
    photoSetSha: 'Photo set fingerprint',
    comparedWith: (version: string) => `Compared with live ${version}`,
    delta: (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${Math.abs(value).toFixed(3)}`,
    deltaPercent: (value: number) => `${value > 0 ? '+' : value < 0 ? '−' : '±'}${(Math.abs(value) * 100).toFixed(1)} pts`,
    columns: {
      name: 'Class',
      precision: 'Precision',
      recall: 'Recall',
      f1: 'F1',
      support: 'Photos',
      f1Delta: 'F1 vs live',
      recallDelta: 'Recall vs live',
    },
    perClassHelp:
      "Precision: of the photos the model gave this class, the share that are of it. Recall: of this class's photos, " +
      'the share the model named rightly. F1 weighs the two together (1.00 is perfect). Choose a column heading to sort by it.',
    sortedBy: (column: string, direction: 'ascending' | 'descending', isText: boolean) =>
      `Sorted by ${column}, ${isText ? (direction === 'ascending' ? 'A to Z' : 'Z to A') : direction === 'ascending' ? 'lowest first' : 'highest first'}.`,
    fewPhotos: 'Few photos',
    fewPhotosHelp:
      `Few photos: the score rests on fewer than ${FEW_PHOTOS_BELOW} photos of the class, ` +
      'so one photo more or less moves it a lot. Treat it as uncertain.',
    matrixHelp:
      "Rows are the photos' true classes, columns what the model predicted; the colour is the share of the " +
      'row, the diagonal (green) is right. Choose a cell to see its photos.',
    trueClass: 'True class',
    predicted: 'Predicted',
    cellLabel: (actual: string, predicted: string, count: number, share: number) =>
      `${count} ${count === 1 ? 'photo' : 'photos'} of ${actual} predicted as ${predicted} (${percent(share)} of the row)`,
    cellTitle: (actual: string, predicted: string) => `${actual} predicted as ${predicted}`,
    changedTitle: {
      fixed: 'Right now, wrong with the live model',
      broken: 'Wrong now, right with the live model',
      changed: 'Verdict changed',
    },
    photosShown: (shown: number, total: number) =>
      shown < total ? `Showing ${shown} of ${total} photos.` : `${total} ${total === 1 ? 'photo' : 'photos'}.`,
    noCellPhotos: 'No photos.',
    predictedAs: (label: string, confidence: number) => `${label} · ${percent(confidence)}`,
    top: (top: Array<{ label: string; confidence: number }>) =>
      `Top ${top.length}: ${top.map((t) => `${t.label} ${percent(t.confidence)}`).join(', ')}`,
    liveVerdict: (label: string) => `Live model: ${label}`,
    openDisease: 'Open in disease',
    openHealth: 'Open in Dataset health',
    linkFor: (link: string, disease: string) => `${link}: ${disease}`,
    photoOf: (disease: string) => `Photo of ${disease}`,
    answered: 'Photos the app answers',
    rightWhenAnswered: 'Right when the app answers',
    answeredHelp: (threshold: number) =>
      `The photos the model is at least ${threshold.toFixed(2)} sure of: on those the app gives its answer.`,
    rightWhenAnsweredHelp:
      "Of those answers, the share that are right. The summary's accuracy counts every photo; this leaves out the ones the app does not answer.",
    coverageHelp:
      "Raising the confidence threshold leaves more photos unanswered and makes the answers more accurate; the dot is the app's threshold.",
    coverageX: 'Photos answered (coverage)',
    coverageY: 'Accuracy of the answers',
    coverageDesc: (threshold: number, coverage: number, accuracy: number | null) =>
      `At the app's threshold of ${threshold.toFixed(2)} the model answers ${percent(coverage)} of the ` +
      `photos, ${accuracy === null ? 'none of them' : `${percent(accuracy)} of them rightly`}.`,
    thresholdMark: (threshold: number) => `Threshold ${threshold.toFixed(2)}`,
    calibration: 'Do its scores mean what they say?',
    calibrationHelp:
      'Photos grouped by how sure the model was. For a model whose scores can be trusted, ' +
      'the photos it was 0.8 sure of are right about 8 times in 10: the bars reach the diagonal.',
    calibrationX: 'How sure the model was',
    calibrationY: 'Share right',
    calibrationDesc: (ece: number | null) => {
      if (ece === null) return 'No photos were scored.';
      const gap = `On average the model's confidence is ${percent(ece)} away from how often it is right`;
      if (ece <= 0.05) return `${gap}: its scores can be read as they are.`;
      if (ece <= 0.15) return `${gap}: somewhat off, so choose the thresholds from the recommendation below.`;
      return `${gap}: far off, so do not read its scores as chances; choose the thresholds from the recommendation below.`;
    },
    calibrationBin: (from: number, to: number, count: number, accuracy: number | null) =>
      `${from.toFixed(1)}–${to.toFixed(1)}: ${count} ${count === 1 ? 'photo' : 'photos'}${accuracy === null ? '' : `, ${percent(accuracy)} right`}`,
    calibrationRange: 'Sure',
    calibrationCount: 'Photos',
    recommended: (target: number, confidence: number, margin: number, coverage: number) =>
      `To be right on at least ${percent(target)} of the scans it answers, ` +
      `set the confidence to ${confidence.toFixed(2)} and the margin to ${margin.toFixed(2)}: ` +
      (coverage >= 0.9995
        ? 'the app then answers every one of these photos.'
        : `the app then answers ${percent(coverage)} of these photos and asks an agriculturist about the rest.`),
    noRecommendation: (target: number) =>
      `No confidence and margin make this model right on ${percent(target)} of the scans it answers on these photos: do not publish it for farmers as it is.`,
    threshold: 'Threshold',
    showNumbers: 'Show the numbers',
    tableOf: (title: string) => `${title}: table`,
    chartOf: (title: string) => `${title}: chart`,
    fixed: (count: number) => `${count} fixed`,
    broken: (count: number) => `${count} broken`,
    fixedHelp: 'right here, wrong with the live model',
    brokenHelp: 'wrong here, right with the live model',
  },
} as const;
