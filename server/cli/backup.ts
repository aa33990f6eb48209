import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { createBackup } from '../platform/storage/backup.js';
import { progressBar } from './progress.js';

/** npm run backup [-- --out DIR]: a consistent snapshot of the database and files, safe while the server runs. */
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const config = loadConfig();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = path.resolve(values.out ?? path.join(config.dataDir, 'backups', `palayan-${stamp}`));
const bar = progressBar('Copying files');
try {
  const manifest = await createBackup(config, out, (done, total) => bar.update(done, total));
  bar.done();
  console.log(`Backup written to ${out} (${manifest.engine}, ${manifest.files} files, ${(manifest.bytes / 1e6).toFixed(1)} MB).`);
  if (config.s3) {
    console.log(
      `Photos are in the bucket ${config.s3.bucket} (S3_BUCKET), not in this backup: keep them with the bucket's versioning or a mirror (docs/DEPLOY.md).`,
    );
  }
} catch (err) {
  console.error(`Backup failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
