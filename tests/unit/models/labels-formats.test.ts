import { describe, expect, it } from 'vitest';
import { MODEL_TEXTS } from '../../../common/models';
import { parseLabelsText } from '../../../server/modules/farmer-app/models/labels';

const refusal = (text: string) => {
  try {
    parseLabelsText(text);
  } catch (err) {
    return (err as { fields?: Record<string, string> }).fields?.labels;
  }
  return undefined;
};

describe('labels files as teams write them', () => {
  it('reads plain lines as they are, numbers and all', () => {
    expect(parseLabelsText('Rice Blast\r\n\r\n  Brown Spot \n2019 strain\n')).toEqual(['Rice Blast', 'Brown Spot', '2019 strain']);
  });

  it("drops Teachable Machine's indexes, from 0 or from 1, with a space or a colon", () => {
    expect(parseLabelsText('0 NonRice\n1 Rice Plant\n')).toEqual(['NonRice', 'Rice Plant']);
    expect(parseLabelsText('\ufeff1: Bacterial Leaf Blight\n2: Brown Spot\n3: Leaf Smut')).toEqual([
      'Bacterial Leaf Blight',
      'Brown Spot',
      'Leaf Smut',
    ]);
  });

  it('reads CSV with an index column, with or without a heading, in either column, quoted or not', () => {
    expect(parseLabelsText('index,label\n0,Rice Blast\n1,"Sheath blight, early"\n')).toEqual(['Rice Blast', 'Sheath blight, early']);
    expect(parseLabelsText('0,Rice Blast\n1,Brown Spot')).toEqual(['Rice Blast', 'Brown Spot']);
    expect(parseLabelsText('name,id\nRice Blast,0\nBrown Spot,1')).toEqual(['Rice Blast', 'Brown Spot']);
    expect(parseLabelsText('id,code,class_name\n0,RB,Rice Blast\n1,BS,Brown Spot')).toEqual(['Rice Blast', 'Brown Spot']);
  });

  it('keeps labels with commas but no index column as plain lines', () => {
    expect(parseLabelsText('Blast, leaf\nBlast, neck')).toEqual(['Blast, leaf', 'Blast, neck']);
  });

  it('refuses an index that is not the line’s place, naming the line', () => {
    expect(refusal('0 Rice Blast\n2 Brown Spot\n1 Leaf Smut')).toBe(MODEL_TEXTS.labelIndex(2, '2 Brown Spot', 1));
    expect(refusal('5 Rice Blast\n6 Brown Spot')).toBe(MODEL_TEXTS.labelIndex(1, '5 Rice Blast', 0));
    expect(refusal('index,label\n0,Rice Blast\n0,Brown Spot')).toBe(MODEL_TEXTS.labelIndex(2, '0 Brown Spot', 1));
  });

  it('reads many numbered lines, and a line of nothing but quotes, as what they are', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `${i} ${'a '.repeat(20)}x`).join('\n');
    expect(parseLabelsText(lines)).toHaveLength(20_000);
    expect(parseLabelsText(`0,"${'"'.repeat(5_001)}`)).toEqual(['"'.repeat(2_500)]);
  });
});
