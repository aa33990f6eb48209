import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { restoreBackup, verifyBackup } from '../platform/storage/backup.js';
import { progressBar } from './progress.js';

/**
 * npm run restore -- <backup folder> [--force]: run with the server stopped.
 * npm run restore -- --verify <backup folder>: the drill: restores into a scratch place (the
 * live data is not touched; a running server may stay up) and compares rows per table, the
 * audit chain head and file hashes with what the backup recorded; exits 1 on any difference.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: 'boolean', default: false }, verify: { type: 'boolean', default: false } },
});
if (!positionals[0]) {
  console.error(
    'Usage: npm run restore -- <backup folder> [--force]   (stop the server first)\n       npm run ' +
      'restore -- --verify <backup folder>   (a drill into a scratch place)',
  );
  process.exit(2);
}
const from = path.resolve(positionals[0]);
if (values.verify) {
  try {
    const checks = await verifyBackup(loadConfig(), from);
    const width = Math.max(...checks.map((c) => c.check.length));
    for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'}  ${c.check.padEnd(width)}  expected ${c.expected}, found ${c.found}`);
    const failed = checks.filter((c) => !c.ok).length;
    console.log(
      failed
        ? `Verify failed: ${failed} of ${checks.length} checks differ.`
        : `Verified: ${checks.length} checks match (restored into a scratch place, then removed).`,
    );
    process.exitCode = failed ? 1 : 0;
  } catch (err) {
    console.error(`Verify failed: ${(err as Error).message}`);
    process.exitCode = 1;
  }
} else {
  const bar = progressBar('Restoring files');
  try {
    const manifest = await restoreBackup(loadConfig(), from, { force: values.force, onProgress: (d, t) => bar.update(d, t) });
    bar.done();
    console.log(
      `Restored the backup of ${manifest.createdAt} (${manifest.engine}, ${manifest.files} files). Start the server with npm start.`,
    );
  } catch (err) {
    console.error(`Restore failed: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}
