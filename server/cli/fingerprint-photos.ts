import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { fingerprintStored } from '../modules/content/photos/index.js';
import { progressBar } from './progress.js';

/**
 * node build/server/cli.js fingerprint-photos: the perceptual hash and quality measures of every
 * stored photo that has none (photos stored before they were taken with the thumbnails), on the
 * local folder or S3, whichever the settings name. Safe while the servers run; run it again
 * after a stop to go on where it stopped.
 */
const { app, ctx } = await buildApp(loadConfig(process.env, { logLevel: 'warn' }), { logger: false });
const bar = progressBar('Fingerprinting photos');
try {
  const report = await fingerprintStored(ctx, (p) => bar.update(p.done, p.total, p.unreadable ? `${p.unreadable} unreadable` : ''));
  bar.done();
  console.log(`${report.done - report.unreadable} photos fingerprinted.`);
  if (report.unreadable > 0) {
    console.error(`${report.unreadable} photos could not be decoded and were left without a fingerprint (see the log).`);
    process.exitCode = 1;
  }
} catch (err) {
  bar.done();
  console.error(`Fingerprinting stopped: ${(err as Error).message}. Run the command again to continue where it stopped.`);
  process.exitCode = 1;
} finally {
  await app.close();
}
