import { describe, expect, it } from 'vitest';
import {
  calibration,
  recommendThresholds,
  type LabelMeaning,
  type ScoredPhoto,
} from '../../../server/modules/farmer-app/models/evaluation/metrics';

const labels: LabelMeaning[] = [
  { index: 0, label: 'blast', recordId: 'blast' },
  { index: 1, label: 'spot', recordId: 'spot' },
];
/** A photo of `truth` whose best score is `confidence` for `predicted` (the other label has the rest). */
const photo = (i: number, truth: 'blast' | 'spot', predicted: 0 | 1, confidence: number): ScoredPhoto => ({
  imageId: `p${i}`,
  diseaseId: truth,
  predicted,
  confidence,
  top: [
    [predicted, confidence],
    [1 - predicted, 1 - confidence],
  ],
});

describe("a model's calibration and recommended thresholds", () => {
  // 20 photos at 0.95, all right; 20 at 0.75, 15 right; 20 at 0.55, 10 right.
  const photos = [
    ...Array.from({ length: 20 }, (_, i) => photo(i, 'blast', 0, 0.95)),
    ...Array.from({ length: 20 }, (_, i) => photo(100 + i, 'spot', 1, 0.75)).map((p, i) => (i < 5 ? { ...p, diseaseId: 'blast' } : p)),
    ...Array.from({ length: 20 }, (_, i) => photo(200 + i, 'spot', 1, 0.55)).map((p, i) => (i < 10 ? { ...p, diseaseId: 'blast' } : p)),
  ];

  it('puts the photos in tenths of their best score, each with its mean confidence and accuracy, and weighs the gaps', () => {
    const { bins, ece } = calibration(labels, photos);
    expect(bins).toHaveLength(10);
    expect(bins[9]).toMatchObject({ count: 20, accuracy: 1 });
    expect(bins[9]!.confidence).toBeCloseTo(0.95);
    expect(bins[7]).toMatchObject({ count: 20, accuracy: 0.75 });
    expect(bins[5]).toMatchObject({ count: 20, accuracy: 0.5 });
    expect(bins[0]).toMatchObject({ count: 0, confidence: null, accuracy: null });
    // (20·0.05 + 20·0 + 20·0.05) / 60
    expect(ece).toBeCloseTo(2 / 60);
    expect(calibration(labels, []).ece).toBeNull();
  });

  it('recommends the thresholds that answer the most photos at the target, or none when none reaches it', () => {
    // 95%: only the 0.95 photos (20 of 60); 85%: the 0.75 ones join (35 of 40 right).
    expect(recommendThresholds(labels, photos, 0.95)).toMatchObject({ confidence: 0.95, margin: 0, accuracy: 1 });
    expect(recommendThresholds(labels, photos, 0.95)!.coverage).toBeCloseTo(1 / 3);
    const at85 = recommendThresholds(labels, photos, 0.85)!;
    expect(at85).toMatchObject({ confidence: 0.75, accuracy: 35 / 40 });
    expect(at85.coverage).toBeCloseTo(2 / 3);
    const wrong = Array.from({ length: 30 }, (_, i) => ({ ...photo(i, 'blast', 1, 0.9) }));
    expect(recommendThresholds(labels, wrong, 0.95)).toBeNull();
  });
});
