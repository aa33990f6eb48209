import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { S3Storage } from '../platform/storage/s3-storage.js';
import { migrateLocalToS3 } from '../platform/storage/storage-migration.js';
import { progressBar } from './progress.js';

/**
 * npm run migrate-storage -- --to s3: copies DATA_DIR/files into the bucket of S3_BUCKET (same
 * keys), resumable, then checks every object's size and MD5. Start the servers with S3_BUCKET
 * set once it reports no differences; the local folder is left as it is (remove it yourself).
 */
const { values } = parseArgs({ options: { to: { type: 'string' }, from: { type: 'string' }, concurrency: { type: 'string' } } });
if (values.to !== 's3') {
  console.error(
    'Usage: npm run migrate-storage -- --to s3 [--from DIR] [--concurrency N]   (S3_BUCKET and the other S3_* settings name the bucket)',
  );
  process.exit(2);
}
const config = loadConfig();
if (!config.s3) {
  console.error(
    'S3_BUCKET is not set: say which bucket to copy into (and S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE as needed).',
  );
  process.exit(2);
}
const from = path.resolve(values.from ?? path.join(config.dataDir, 'files'));
const target = new S3Storage(config.s3);
const bar = progressBar('Copying photos');
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
try {
  const report = await migrateLocalToS3(from, target, {
    concurrency: Number(values.concurrency ?? 4),
    onProgress: (p) => bar.update(p.done, p.total, `${mb(p.bytes)} of ${mb(p.totalBytes)}`),
  });
  bar.done();
  console.log(
    `${report.files} files from ${from} to bucket ${config.s3.bucket}: ${report.copied} copied, ${report.skipped} already there, ${mb(report.bytes)}.`,
  );
  for (const key of report.unusable) console.warn(`not copied (name cannot be a key): ${key}`);
  if (report.mismatched.length > 0) {
    for (const key of report.mismatched) console.error(`differs after copy: ${key}`);
    console.error(`${report.mismatched.length} objects differ from the local files: run the command again.`);
    process.exitCode = 1;
  } else {
    console.log('Every object matches its local file (size and MD5). Set S3_BUCKET for the servers and restart them.');
  }
} catch (err) {
  bar.done();
  console.error(`Storage migration stopped: ${(err as Error).message}. Run the command again to continue where it stopped.`);
  process.exitCode = 1;
} finally {
  target.close();
}
