import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { restoreBackup } from '../platform/backup.js';
import { progressBar } from './progress.js';

/** npm run restore -- <backup folder> [--force]: run with the server stopped. */
const { values, positionals } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
if (!positionals[0]) {
  console.error('Usage: npm run restore -- <backup folder> [--force]   (stop the server first)');
  process.exit(2);
}
const bar = progressBar('Restoring files');
try {
  const manifest = await restoreBackup(loadConfig(), path.resolve(positionals[0]), { force: values.force, onProgress: (d, t) => bar.update(d, t) });
  bar.done();
  console.log(`Restored the backup of ${manifest.createdAt} (${manifest.engine}, ${manifest.files} files). Start the server with npm start.`);
} catch (err) {
  console.error(`Restore failed: ${(err as Error).message}`);
  process.exitCode = 1;
}
