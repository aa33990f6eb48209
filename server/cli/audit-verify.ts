import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createDb } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { readAnchorFile, readAnchors } from '../modules/operations/audit-trail/index.js';
import { verifyAuditTrail } from '../modules/operations/audit-trail/index.js';
import type { AnchorCheck } from '../modules/operations/audit-trail/index.js';
import { progressBar } from './progress.js';

/**
 * npm run audit:verify [-- --archive FILE ...] [--anchor FILE ...]: walks the audit chain of
 * DATA_DIR / DATABASE_URL (archives first, when given) and checks the anchors of
 * DATA_DIR/audit-anchors plus any given. Exit 0 when intact; 1 naming the first entry that
 * was changed, removed or inserted out of order; 2 on a usage error.
 */
const { values } = parseArgs({
  options: { archive: { type: 'string', multiple: true }, anchor: { type: 'string', multiple: true }, quiet: { type: 'boolean' } },
});
const config = loadConfig(process.env, { logLevel: 'warn' });
const anchors: AnchorCheck[] = (await readAnchors(config.dataDir)).checks;
for (const file of values.anchor ?? []) {
  const check = await readAnchorFile(path.resolve(file)).catch(() => null);
  if (!check) {
    console.error(`${file}: not an audit anchor (a JSON object with "index" and "hash").`);
    process.exit(2);
  }
  anchors.push(check);
}
const db = createDb(config);
const bar = values.quiet ? null : progressBar('Verifying audit trail');
const started = performance.now();
try {
  await migrateToLatest(db);
  const result = await verifyAuditTrail(db, {
    archives: (values.archive ?? []).map((f) => path.resolve(f)),
    anchors,
    onProgress: (checked, total) => bar?.update(checked, total),
  });
  bar?.done();
  const seconds = (performance.now() - started) / 1000;
  const rate = Math.round(result.checked / Math.max(seconds, 0.001));
  if (result.ok) {
    console.log(
      `Audit trail intact: ${result.checked.toLocaleString('en-US')} entries in order up to ` +
        `#${result.headIndex.toLocaleString('en-US')}, ${result.anchorsChecked} anchor(s) ` +
        `matched${result.anchorsSkipped ? `, ${result.anchorsSkipped} older than the live chain (give their archives with --archive)` : ''} (${seconds.toFixed(2)} s, ${rate.toLocaleString('en-US')} entries/s).`,
    );
  } else {
    console.error(`Audit trail NOT intact after ${result.checked.toLocaleString('en-US')} good entries: ${result.problem!.message}`);
    process.exitCode = 1;
  }
} catch (err) {
  bar?.done();
  console.error(`Could not verify: ${(err as Error).message}`);
  process.exitCode = 2;
} finally {
  await db.destroy();
}
