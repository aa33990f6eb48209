/**
 * An evaluation's numbers, computed from its stored predictions (never by the runner), so a
 * report read again, or an evaluation run again on the same photos, gives the same figures.
 */
import { THRESHOLD_MARGINS, type PlantVerdict } from '../../../../../common/models.js';

export interface LabelMeaning {
  index: number;
  label: string;
  recordId: string | null;
}
export interface ScoredPhoto {
  imageId: string;
  diseaseId: string;
  predicted: number;
  confidence: number;
  top: Array<[number, number]>;
  /** A plant check's photo: the record it belongs to (diseaseId is then its verdict's class). */
  sourceId?: string;
}

export interface ClassKey {
  key: string;
  name: string;
  recordId: string | null;
}

export const recordKey = (id: string) => `record:${id}`;
export const labelKey = (index: number) => `label:${index}`;

/** A plant check's verdict as a class of its own, in the place of a record id. */
export const verdictClass = (verdict: PlantVerdict) => `verdict:${verdict}`;
export const isVerdictClass = (id: string | null) => id !== null && id.startsWith('verdict:');

/**
 * A plant check's predictions as a two-class problem: each label means its verdict, and each
 * photo's class is "not a rice plant" when its record is in notRice, else "rice plant" (the
 * photos of every disease and of the other training classes). Every metric below then reads
 * the verdicts as it reads records.
 */
export function asVerdicts(
  labels: ReadonlyArray<{ label: string; verdict: PlantVerdict | null }>,
  photos: readonly ScoredPhoto[],
  notRice: ReadonlySet<string>,
): { labels: LabelMeaning[]; photos: ScoredPhoto[] } {
  return {
    labels: labels.map((l, index) => ({ index, label: l.label, recordId: l.verdict ? verdictClass(l.verdict) : null })),
    photos: photos.map((p) => ({
      ...p,
      diseaseId: verdictClass(notRice.has(p.diseaseId) ? 'not-rice-plant' : 'rice-plant'),
      sourceId: p.diseaseId,
    })),
  };
}

/** The class a prediction names: its label's record, or the label itself when it means no record. */
export function predictedKey(labels: readonly LabelMeaning[], index: number): string {
  const meaning = labels[index];
  return meaning?.recordId ? recordKey(meaning.recordId) : labelKey(index);
}

/**
 * The matrix's classes: every record a photo belongs to or a label names (by name), then the
 * labels that name no record (in output order). Rows are true classes, columns predictions.
 */
export function classKeys(labels: readonly LabelMeaning[], photos: readonly ScoredPhoto[], names: ReadonlyMap<string, string>): ClassKey[] {
  const records = new Set<string>();
  for (const p of photos) records.add(p.diseaseId);
  for (const l of labels) if (l.recordId) records.add(l.recordId);
  const byName = [...records]
    .map((id) => ({ key: recordKey(id), name: names.get(id) ?? id, recordId: id }))
    .sort((a, b) => a.name.localeCompare(b.name) || (a.key < b.key ? -1 : 1));
  const loose = labels.filter((l) => !l.recordId).map((l) => ({ key: labelKey(l.index), name: l.label, recordId: null }));
  return [...byName, ...loose];
}

export interface ClassMetrics {
  key: string;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  support: number;
  predicted: number;
}

export interface Metrics {
  classes: ClassKey[];
  matrix: number[][];
  perClass: ClassMetrics[];
  accuracy: number | null;
  /** The mean F1 of every class that has photos or was predicted (a class never predicted counts 0). */
  macroF1: number | null;
}

export function computeMetrics(
  labels: readonly LabelMeaning[],
  photos: readonly ScoredPhoto[],
  names: ReadonlyMap<string, string>,
): Metrics {
  const classes = classKeys(labels, photos, names);
  const at = new Map(classes.map((c, i) => [c.key, i]));
  const matrix = classes.map(() => classes.map(() => 0));
  let right = 0;
  for (const p of photos) {
    const actual = at.get(recordKey(p.diseaseId))!;
    const predicted = at.get(predictedKey(labels, p.predicted));
    if (predicted === undefined) continue;
    matrix[actual]![predicted]! += 1;
    if (actual === predicted) right += 1;
  }
  const perClass = classes.map((c, i) => {
    const tp = matrix[i]![i]!;
    const support = matrix[i]!.reduce((a, b) => a + b, 0);
    const predicted = matrix.reduce((a, row) => a + row[i]!, 0);
    const precision = predicted > 0 ? tp / predicted : support > 0 ? 0 : null;
    const recall = support > 0 ? tp / support : null;
    const f1 =
      precision === null || recall === null
        ? support > 0 || predicted > 0
          ? 0
          : null
        : precision + recall > 0
          ? (2 * precision * recall) / (precision + recall)
          : 0;
    return { key: c.key, precision, recall, f1, support, predicted };
  });
  const counted = perClass.filter((c) => c.support > 0 || c.predicted > 0);
  return {
    classes,
    matrix,
    perClass,
    accuracy: photos.length > 0 ? right / photos.length : null,
    macroF1: counted.length > 0 ? counted.reduce((a, c) => a + (c.f1 ?? 0), 0) / counted.length : null,
  };
}

/**
 * The report's order of classes, weakest first: the lowest F1 (a class with none last), then the
 * one resting on fewer photos, then by name.
 */
export function weakestFirst<R extends { key: string; name: string; f1: number | null; support: number }>(rows: readonly R[]): R[] {
  return [...rows].sort(
    (a, b) =>
      (a.f1 ?? Infinity) - (b.f1 ?? Infinity) ||
      a.support - b.support ||
      a.name.localeCompare(b.name) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
}

/** The weakest class that has photos in the evaluation (the one the report names first), or null. */
export function weakestClass<R extends { key: string; name: string; f1: number | null; support: number }>(rows: readonly R[]): R | null {
  return weakestFirst(rows).find((r) => r.support > 0 && r.f1 !== null) ?? null;
}

/** True when the photo's verdict is its own record. */
export function isRight(labels: readonly LabelMeaning[], p: ScoredPhoto): boolean {
  return predictedKey(labels, p.predicted) === recordKey(p.diseaseId);
}

/** Whether the app would show a verdict: confident enough, and ahead of the second-best by the margin. */
export function answered(p: ScoredPhoto, confidence: number, margin: number): boolean {
  const second = p.top[1]?.[1] ?? 0;
  return p.confidence >= confidence && p.confidence - second >= margin;
}

/**
 * Accuracy of the photos answered and the share answered, as the confidence threshold goes from
 * 0 to 1 in hundredths, with the app's margin to the second-best applied throughout.
 */
export function coverageCurve(labels: readonly LabelMeaning[], photos: readonly ScoredPhoto[], margin = 0) {
  const points: Array<{ threshold: number; coverage: number; accuracy: number | null }> = [];
  for (let step = 0; step <= 100; step += 1) {
    const threshold = step / 100;
    let n = 0;
    let right = 0;
    for (const p of photos) {
      if (!answered(p, threshold, margin)) continue;
      n += 1;
      if (isRight(labels, p)) right += 1;
    }
    points.push({ threshold, coverage: photos.length > 0 ? n / photos.length : 0, accuracy: n > 0 ? right / n : null });
  }
  return points;
}

export function atThreshold(labels: readonly LabelMeaning[], photos: readonly ScoredPhoto[], confidence: number, margin: number) {
  const shown = photos.filter((p) => answered(p, confidence, margin));
  const right = shown.filter((p) => isRight(labels, p)).length;
  return { coverage: photos.length > 0 ? shown.length / photos.length : 0, accuracy: shown.length > 0 ? right / shown.length : null };
}

/** Fewer answered photos than this say too little to recommend a threshold from. */
const MIN_ANSWERED = 10;

/**
 * Whether the model's confidences mean what they say: the photos in tenths of their best score,
 * each tenth's mean confidence and accuracy (a reliability diagram), and the expected
 * calibration error, the photos' weighted gap between the two (0 for a model whose 0.8 is
 * right 8 times in 10).
 */
export function calibration(labels: readonly LabelMeaning[], photos: readonly ScoredPhoto[], bins = 10) {
  const sums = Array.from({ length: bins }, () => ({ count: 0, confidence: 0, right: 0 }));
  for (const p of photos) {
    const bin = sums[Math.min(bins - 1, Math.max(0, Math.floor(p.confidence * bins)))]!;
    bin.count += 1;
    bin.confidence += p.confidence;
    if (isRight(labels, p)) bin.right += 1;
  }
  const out = sums.map((b, i) => ({
    from: i / bins,
    to: (i + 1) / bins,
    count: b.count,
    confidence: b.count > 0 ? b.confidence / b.count : null,
    accuracy: b.count > 0 ? b.right / b.count : null,
  }));
  const ece =
    photos.length > 0
      ? out.reduce((s, b) => s + (b.count > 0 ? (b.count / photos.length) * Math.abs(b.accuracy! - b.confidence!) : 0), 0)
      : null;
  return { bins: out, ece };
}

/**
 * The share of photos answered and how many of those are right at every confidence from 0 to 1
 * in hundredths (points[c × 100]), for each margin given (the recommendation's, and any other
 * the screen asks about). Per margin the photos are put in order of confidence once, so a
 * threshold's accuracy is a running count.
 */
export function thresholdGrid(labels: readonly LabelMeaning[], photos: readonly ScoredPhoto[], margins: readonly number[]) {
  return [...new Set(margins)].map((margin) => {
    const kept = photos
      .filter((p) => p.confidence - (p.top[1]?.[1] ?? 0) >= margin)
      .map((p) => ({ confidence: p.confidence, right: isRight(labels, p) }))
      .sort((a, b) => b.confidence - a.confidence);
    const points: Array<{ answered: number; right: number; coverage: number; accuracy: number | null }> = new Array(101);
    // i: the photos with at least this confidence; right: how many of them are right.
    let i = 0;
    let right = 0;
    for (let step = 100; step >= 0; step -= 1) {
      const confidence = step / 100;
      while (i < kept.length && kept[i]!.confidence >= confidence) {
        if (kept[i]!.right) right += 1;
        i += 1;
      }
      points[step] = { answered: i, right, coverage: photos.length > 0 ? i / photos.length : 0, accuracy: i > 0 ? right / i : null };
    }
    return { margin, points };
  });
}

/**
 * The confidence and margin that answer the most photos while the answered ones are right at
 * least `target` of the time (of equal coverage, the lower margin and higher confidence); null
 * when no pair reaches it on at least a few photos.
 */
export function recommendThresholds(labels: readonly LabelMeaning[], photos: readonly ScoredPhoto[], target: number) {
  let best: { confidence: number; margin: number; coverage: number; accuracy: number } | null = null;
  for (const { margin, points } of thresholdGrid(labels, photos, THRESHOLD_MARGINS)) {
    for (let step = 100; step >= 0; step -= 1) {
      const p = points[step]!;
      if (p.answered < MIN_ANSWERED || p.right / p.answered < target) continue;
      if (!best || p.coverage > best.coverage + 1e-12)
        best = { confidence: step / 100, margin, coverage: p.coverage, accuracy: p.accuracy! };
    }
  }
  return best;
}
