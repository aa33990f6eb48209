import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { cycles, moduleGraph } from '../../scripts/module-cycles.mjs';

type Graph = Map<string, Map<string, string[]>>;
const graph = (edges: Array<[string, string]>): Graph => {
  const g: Graph = new Map();
  for (const [from, to] of edges) {
    if (!g.has(from)) g.set(from, new Map());
    g.get(from)!.set(to, [`server/modules/${from}/x.ts`]);
  }
  return g;
};

describe('no import cycles between server modules (npm run lint:cycles)', () => {
  it('finds a two-way import and a longer loop, and passes a layered graph', () => {
    expect(
      cycles(
        graph([
          ['a', 'b'],
          ['b', 'a'],
          ['c', 'a'],
        ]),
      ),
    ).toEqual([['a', 'b']]);
    expect(
      cycles(
        graph([
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'a'],
          ['d', 'a'],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(
      cycles(
        graph([
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'c'],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads the real tree: imports between modules are seen, and none loops back', () => {
    const real = moduleGraph() as Graph;
    expect(real.get('content/catalog')?.has('content/photos')).toBe(true);
    expect(real.get('publishing/versions')?.has('content/catalog') ?? false).toBe(false);
    expect(cycles(real)).toEqual([]);
  });
});
