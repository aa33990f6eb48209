import { describe, expect, it } from 'vitest';
import { clusterPhotos, type ClusteredPhoto } from '../../server/modules/farmer-app/training/clusters.js';

const A = '0000000000000000';
/** A with the lowest `bits` bits set, shifted left by `from`. */
const bitsSet = (bits: number, from = 0) => (((1n << BigInt(bits)) - 1n) << BigInt(from)).toString(16).padStart(16, '0');
let minute = 0;
const photo = (id: string, phash: string | null, entryId = 'blast', sha256: string | null = `sha-${id}`): ClusteredPhoto => ({
  id,
  entryId,
  sha256,
  phash,
  linkedAt: new Date(Date.UTC(2026, 0, 1, 0, minute++)).toISOString(),
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('photo clusters', () => {
  it('groups photos around their earliest: a chain of small steps between different photos is not one group', () => {
    const photos = [photo('a', A), photo('b', bitsSet(8)), photo('c', bitsSet(16))];
    const groups = clusterPhotos(photos);
    expect(groups.get('a')).toEqual({ cluster: 'a', size: 2, conflict: false });
    expect(groups.get('b')).toEqual({ cluster: 'a', size: 2, conflict: false });
    expect(groups.get('c')).toEqual({ cluster: 'c', size: 1, conflict: false });
  });

  it('joins the nearest group, takes the same bytes whatever the hash, and marks a group across two diseases', () => {
    const photos = [
      photo('a', A),
      photo('far', bitsSet(12, 40)),
      photo('near-far', bitsSet(12, 40).replace(/^0/, '1')),
      photo('copy', null, 'blast', 'sha-a'),
      photo('other', bitsSet(3), 'tungro'),
    ];
    const groups = clusterPhotos(photos);
    expect(groups.get('near-far')!.cluster).toBe('far');
    expect(groups.get('copy')!.cluster).toBe('a');
    expect(groups.get('other')).toEqual({ cluster: 'a', size: 3, conflict: true });
  });

  it('never moves a photo to another group when photos are added later', () => {
    const first = [photo('p1', bitsSet(4)), photo('p2', bitsSet(9, 20)), photo('p3', bitsSet(2, 50))];
    const before = clusterPhotos(first);
    const later = [...first, photo('bridge', bitsSet(5)), photo('p4', bitsSet(9, 21))];
    const after = clusterPhotos(later);
    for (const p of first) expect(after.get(p.id)!.cluster).toBe(before.get(p.id)!.cluster);
  });
});
