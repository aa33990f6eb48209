import { describe, expect, it } from 'vitest';
import { weakestClass, weakestFirst } from '../../../server/modules/farmer-app/models/evaluation/metrics.js';

const row = (name: string, f1: number | null, support: number) => ({ key: `record:${name}`, name, f1, support });

describe("The report's classes, weakest first", () => {
  it('orders by F1, then fewer photos, then name; a class with no F1 comes last', () => {
    const rows = [
      row('Tungro', null, 0),
      row('Brown spot', 0.9, 30),
      row('Rice blast', 0.67, 12),
      row('Sheath blight', 0.67, 2),
      row('Bakanae', 0.9, 30),
    ];
    expect(weakestFirst(rows).map((r) => r.name)).toEqual(['Sheath blight', 'Rice blast', 'Bakanae', 'Brown spot', 'Tungro']);
  });

  it('names the weakest class that has photos, and none when no class has any', () => {
    expect(weakestClass([row('Healthy', 0, 0), row('Rice blast', 0.5, 4), row('Brown spot', 0.8, 9)])?.name).toBe('Rice blast');
    expect(weakestClass([row('Healthy', null, 0)])).toBeNull();
  });
});
