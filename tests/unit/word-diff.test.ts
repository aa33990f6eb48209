import { describe, expect, it } from 'vitest';
import { wordDiff, type DiffPart } from '../../src/lib/word-diff';

const join = (parts: DiffPart[], keep: 'removed' | 'added') =>
  parts
    .filter((p) => p.kind === 'same' || p.kind === keep)
    .map((p) => p.text)
    .join('');

describe('wordDiff', () => {
  it('marks the words removed and added between two texts, the rest the same', () => {
    expect(wordDiff('Oval lesions on the leaf.', 'Oval, grey-green lesions on the leaf.')).toEqual([
      { kind: 'removed', text: 'Oval' },
      { kind: 'added', text: 'Oval, grey-green' },
      { kind: 'same', text: ' lesions on the leaf.' },
    ]);
    // A replacement reads as one: the spaces between its words join both sides.
    expect(wordDiff('Oval lesions near the water line.', 'Oval, grey-green lesions near the water line, later brown.')).toEqual([
      { kind: 'removed', text: 'Oval' },
      { kind: 'added', text: 'Oval, grey-green' },
      { kind: 'same', text: ' lesions near the water ' },
      { kind: 'removed', text: 'line.' },
      { kind: 'added', text: 'line, later brown.' },
    ]);
    expect(wordDiff('a b', 'a x y b')).toEqual([
      { kind: 'same', text: 'a ' },
      { kind: 'added', text: 'x y ' },
      { kind: 'same', text: 'b' },
    ]);
    expect(wordDiff('Spray 2 g per litre.', 'Spray 3 g per litre.')).toEqual([
      { kind: 'same', text: 'Spray ' },
      { kind: 'removed', text: '2' },
      { kind: 'added', text: '3' },
      { kind: 'same', text: ' g per litre.' },
    ]);
  });

  it('gives back both texts exactly, line breaks and non-ASCII letters included', () => {
    const pairs: Array<[string, string]> = [
      ['Mga sugat na hugis-diyamante;\nñ at é.', 'Mga maliit na sugat;\n\nñ, é at â.'],
      ['', 'New text'],
      ['Old text', ''],
      ['same', 'same'],
      ['a b c d e f', 'f e d c b a'],
    ];
    for (const [before, after] of pairs) {
      const parts = wordDiff(before, after);
      expect(join(parts, 'removed')).toBe(before);
      expect(join(parts, 'added')).toBe(after);
    }
    expect(wordDiff('same', 'same')).toEqual([{ kind: 'same', text: 'same' }]);
    expect(wordDiff('', '')).toEqual([]);
  });

  it('shows very long different texts as removed then added, whole', () => {
    const before = Array.from({ length: 800 }, (_, i) => `a${i}`).join(' ');
    const after = Array.from({ length: 800 }, (_, i) => `b${i}`).join(' ');
    expect(wordDiff(before, after)).toEqual([
      { kind: 'removed', text: before },
      { kind: 'added', text: after },
    ]);
  });
});
