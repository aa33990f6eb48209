import { DATASET_LIMITS } from '../../../../common/dataset.js';
import { HashIndex } from '../../content/photos/index.js';

export interface ClusteredPhoto {
  id: string;
  entryId: string | null;
  sha256: string | null;
  phash?: string | null;
  /** When the photo joined the data set: the earliest of a cluster names it. */
  linkedAt: string | null;
  createdAt: string;
}

export interface PhotoCluster {
  /** The id of the cluster's earliest photo: the key its split is drawn from. */
  cluster: string;
  size: number;
  /** Its photos belong to more than one disease: one picture, two labels. */
  conflict: boolean;
}

/**
 * Photos that are copies of one another, grouped around their earliest photo: taken in the
 * order they joined the data set, a photo joins the group of an earlier photo with the same
 * bytes (sha256), else of the nearest group's first photo whose perceptual hash is at most
 * DATASET_LIMITS.nearDuplicateBits away, else starts a group of its own. Every member is within
 * the threshold of its group's first photo (no chains of small steps between different leaves),
 * and a photo added later never moves an earlier one to another group, so splits drawn by group
 * stay where they were.
 */
export function clusterPhotos(photos: readonly ClusteredPhoto[]): Map<string, PhotoCluster> {
  const when = (p: ClusteredPhoto) => p.linkedAt ?? p.createdAt;
  const ordered = [...photos].sort((a, b) => (when(a) < when(b) ? -1 : when(a) > when(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const leaders = new HashIndex();
  const leaderIds: string[] = [];
  const groupOf = new Map<string, string>();
  const bySha = new Map<string, string>();
  for (const p of ordered) {
    let group = p.sha256 ? bySha.get(p.sha256) : undefined;
    if (group === undefined && p.phash) {
      const near = leaders.near(p.phash, DATASET_LIMITS.nearDuplicateBits);
      const nearest = near.reduce<(typeof near)[number] | null>(
        (best, n) => (!best || n.distance < best.distance || (n.distance === best.distance && n.index < best.index) ? n : best),
        null,
      );
      if (nearest) group = leaderIds[nearest.index];
    }
    if (group === undefined) {
      group = p.id;
      if (p.phash) {
        leaders.add(p.phash);
        leaderIds.push(p.id);
      }
    }
    groupOf.set(p.id, group);
    if (p.sha256 && !bySha.has(p.sha256)) bySha.set(p.sha256, group);
  }
  const members = new Map<string, ClusteredPhoto[]>();
  for (const p of ordered) {
    const g = groupOf.get(p.id)!;
    const list = members.get(g);
    if (list) list.push(p);
    else members.set(g, [p]);
  }
  const out = new Map<string, PhotoCluster>();
  for (const [cluster, list] of members) {
    const conflict = new Set(list.map((p) => p.entryId)).size > 1;
    for (const p of list) out.set(p.id, { cluster, size: list.length, conflict });
  }
  return out;
}
