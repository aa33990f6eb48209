import type { Kysely } from 'kysely';
import { AUDIT_TRAIL, AUDIT_TRAIL_LIMITS } from '../../../../common/audit-trail.js';
import { inSnapshot } from '../../../db/dialect.js';
import type { Database } from '../../../db/types.js';
import { sealAuditChain } from '../../../platform/writes/audit.js';
import { GENESIS_HASH } from '../../../platform/writes/audit-hash.js';
import { openArchive } from './archive.js';
import { auditTrailRepository as repo } from './repository.js';
import { ChainWalker, type AnchorCheck, type ChainProblem } from './verify.js';

export interface VerifyOptions {
  /** Archive files to check first, in any order: they must join one another and the live chain. */
  archives?: string[];
  anchors?: AnchorCheck[];
  onProgress?: (checked: number, total: number) => void;
  /** Chain the entries waiting for the sealer before walking (default true). */
  seal?: boolean;
}

export interface VerifyOutcome {
  ok: boolean;
  checked: number;
  total: number;
  headIndex: number;
  problem: ChainProblem | null;
  anchorsChecked: number;
  /** Anchors older than the live chain that no given archive covered. */
  anchorsSkipped: number;
}

/**
 * Verifies the audit chain end to end: the archives given (oldest first), then every live
 * entry from the chain's base to its recorded head, then the anchors beyond it.
 * Streams in batches; stops at the first problem, naming the entry.
 */
export async function verifyAuditTrail(db: Kysely<Database>, options: VerifyOptions = {}): Promise<VerifyOutcome> {
  // Entries committed but not chained yet are chained first, so the walk covers everything.
  if (options.seal !== false) await sealAuditChain(db);
  const head = await repo.head(db);
  const anchors = new Map<number, AnchorCheck[]>();
  for (const a of options.anchors ?? []) anchors.set(a.index, [...(anchors.get(a.index) ?? []), a]);

  const archives = [];
  for (const file of options.archives ?? []) archives.push({ file, ...(await openArchive(file)) });
  archives.sort((a, b) => a.header.firstIndex - b.header.firstIndex);

  const startIndex = archives.length > 0 ? 0 : head.baseIndex;
  const walker = new ChainWalker(startIndex, archives.length > 0 ? GENESIS_HASH : head.baseHash, anchors);
  const total = head.lastIndex - startIndex;
  const outcome = (): VerifyOutcome => {
    const skipped = walker.problem ? 0 : [...anchors.keys()].filter((i) => i <= startIndex).length;
    return {
      ok: walker.problem === null,
      checked: walker.checked,
      total,
      headIndex: head.lastIndex,
      problem: walker.problem,
      anchorsChecked: walker.anchorsChecked.size,
      anchorsSkipped: skipped,
    };
  };
  let lastReport = 0;
  const progress = () => {
    const now = Date.now();
    if (now - lastReport >= 200) {
      lastReport = now;
      options.onProgress?.(walker.checked, total);
    }
  };

  for (const archive of archives) {
    const name = archive.file.split(/[\\/]/).pop()!;
    const { header } = archive;
    if (header.firstIndex !== walker.expected || header.prevHash !== walker.prevHash) {
      await archive.rows.return(undefined);
      walker.fail({
        kind: 'archive',
        index: walker.expected,
        id: null,
        message: AUDIT_TRAIL.problems.archive(name, `it starts at #${header.firstIndex} but the chain continues at #${walker.expected}.`),
      });
      return outcome();
    }
    for await (const row of archive.rows) {
      if (!walker.step(row)) break;
      progress();
    }
    if (walker.problem) return outcome();
    if (walker.lastIndex !== header.lastIndex || walker.prevHash !== header.lastHash) {
      walker.fail({
        kind: 'archive',
        index: walker.expected,
        id: null,
        message: AUDIT_TRAIL.problems.archive(name, `its entries end at #${walker.lastIndex}, its header says #${header.lastIndex}.`),
      });
      return outcome();
    }
  }
  if (archives.length > 0 && (walker.lastIndex !== head.baseIndex || walker.prevHash !== head.baseHash)) {
    walker.fail({
      kind: 'archive',
      index: walker.expected,
      id: null,
      message: AUDIT_TRAIL.problems.archive(
        '(last given)',
        `it ends at #${walker.lastIndex} but the database continues after #${head.baseIndex}.`,
      ),
    });
    return outcome();
  }

  for (;;) {
    const fast = await repo.canonicalBatch(db, walker.lastIndex, AUDIT_TRAIL_LIMITS.batch);
    const rows = fast ?? (await repo.chainBatch(db, walker.lastIndex, AUDIT_TRAIL_LIMITS.batch));
    if (rows.length === 0) break;
    for (const row of rows) {
      const index = row.chainIndex!;
      if (index > head.lastIndex && index === walker.expected) {
        const id = row.id ?? '';
        walker.fail({ kind: 'beyond-head', index, id, message: AUDIT_TRAIL.problems.beyondHead(index, id) });
        break;
      }
      const good = 'canonical' in row ? walker.stepParts(index, row.prevHash, row.hash, row.canonical, row.id) : walker.step(row);
      if (good) continue;
      // The database's JSON may escape an unusual character differently: check that entry exactly.
      const exact = fast && walker.problem?.kind === 'changed' ? await repo.entryAt(db, index) : undefined;
      if (!exact || !walker.retry(exact)) break;
    }
    if (walker.problem) return outcome();
    progress();
  }
  if (walker.lastIndex < head.lastIndex) {
    walker.fail({ kind: 'removed', index: walker.expected, id: null, message: AUDIT_TRAIL.problems.removed(walker.expected, null, null) });
  } else if (walker.prevHash !== head.lastHash) {
    walker.fail({ kind: 'head', index: head.lastIndex, id: null, message: AUDIT_TRAIL.problems.headMismatch });
  } else {
    for (const a of anchors.keys()) {
      if (a > head.lastIndex) {
        const file = anchors.get(a)![0]!.file;
        walker.fail({ kind: 'anchor', index: a, id: null, message: AUDIT_TRAIL.problems.anchor(a, file) });
        break;
      }
    }
    if (!walker.problem) {
      // Every entry the console writes is chained or waiting to be; any other was written around it.
      const outside = await inSnapshot(db, (trx) => repo.outsideChain(trx));
      if (outside.count > 0)
        walker.fail({
          kind: 'unchained',
          index: null,
          id: outside.firstId,
          message: AUDIT_TRAIL.problems.unchained(outside.count, outside.firstId ?? ''),
        });
    }
  }
  options.onProgress?.(walker.checked, total);
  return outcome();
}
