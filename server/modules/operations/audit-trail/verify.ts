import { AUDIT_TRAIL } from '../../../../common/audit-trail.js';
import crypto from 'node:crypto';
import { canonicalEntry } from '../../../platform/writes/audit-hash.js';
import type { ChainRow } from './repository.js';

export type ProblemKind = 'changed' | 'removed' | 'out-of-order' | 'unchained' | 'beyond-head' | 'head' | 'anchor' | 'archive';

export interface ChainProblem {
  kind: ProblemKind;
  /** The chain position the problem was found at, when it has one. */
  index: number | null;
  /** The id of the entry named, when there is one. */
  id: string | null;
  message: string;
}

/** What an anchor asserts: the entry at `index` had `hash`. */
export interface AnchorCheck {
  index: number;
  hash: string;
  file: string;
}

/**
 * Walks entries in chain order and stops at the first one that breaks the chain. The checks,
 * in order: a gap in positions (an entry was removed); a link to something other than the
 * entry before (inserted, removed with renumbering, or moved); the entry's own hash (its
 * content or its seq, the order History lists it in, was changed); an anchor taken earlier
 * at this position.
 */
export class ChainWalker {
  expected: number;
  prevHash: string;
  checked = 0;
  problem: ChainProblem | null = null;
  readonly anchorsChecked = new Set<string>();

  constructor(
    baseIndex: number,
    baseHash: string,
    private readonly anchors: Map<number, AnchorCheck[]> = new Map(),
  ) {
    this.expected = baseIndex + 1;
    this.prevHash = baseHash;
  }

  /** False once a problem was found (the walk should stop). */
  step(row: ChainRow): boolean {
    return this.stepParts(row.chainIndex ?? -1, row.prevHash, row.hash, canonicalEntry(row), row.id ?? '');
  }

  /** The same check from an entry's parts: its canonical content already made (packed reads). */
  stepParts(index: number, prevHash: string | null, hash: string | null, canonical: string, id: string): boolean {
    if (this.problem) return false;
    if (index > this.expected) {
      return this.fail({
        kind: 'removed',
        index: this.expected,
        id: null,
        message: AUDIT_TRAIL.problems.removed(this.expected, index, id),
      });
    }
    if (index !== this.expected || prevHash !== this.prevHash) {
      return this.fail({ kind: 'out-of-order', index: this.expected, id, message: AUDIT_TRAIL.problems.outOfOrder(this.expected, id) });
    }
    if (crypto.hash('sha256', `${prevHash}\n${canonical}`, 'hex') !== hash) {
      return this.fail({ kind: 'changed', index, id, message: AUDIT_TRAIL.problems.changed(index, id) });
    }
    const anchored = this.anchors.get(index);
    if (anchored) {
      for (const anchor of anchored) {
        if (anchor.hash !== hash) return this.fail({ kind: 'anchor', index, id, message: AUDIT_TRAIL.problems.anchor(index, anchor.file) });
        this.anchorsChecked.add(anchor.file);
      }
    }
    this.prevHash = hash;
    this.expected += 1;
    this.checked += 1;
    return true;
  }

  /** Checks again, with the entry read exactly, a row a fast reader may have unpacked inexactly. */
  retry(exact: ChainRow): boolean {
    if (this.problem?.kind !== 'changed' || this.problem.index !== exact.chainIndex) return false;
    this.problem = null;
    return this.step(exact);
  }

  fail(problem: ChainProblem): false {
    this.problem ??= problem;
    return false;
  }

  get lastIndex(): number {
    return this.expected - 1;
  }
}
