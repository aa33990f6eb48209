import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { cleanStoredLocations } from '../modules/content/photos/index.js';
import { progressBar } from './progress.js';

/**
 * node build/server/cli.js migrate-photos --strip-location: removes location and identifying
 * metadata from every stored photo not yet cleaned (local folder or S3, whichever
 * the settings name). Safe to run while the servers run, and again after a stop.
 */
const { values } = parseArgs({ options: { 'strip-location': { type: 'boolean', default: false } } });
if (!values['strip-location']) {
  console.error('Usage: node build/server/cli.js migrate-photos --strip-location');
  process.exit(2);
}
const { app, ctx } = await buildApp(loadConfig(process.env, { logLevel: 'warn' }), { logger: false });
const bar = progressBar('Cleaning photos');
try {
  const report = await cleanStoredLocations(ctx, (p) => bar.update(p.done, p.total, `${p.changed} changed`));
  bar.done();
  console.log(
    `${report.done} photos checked: ${report.changed} had location or identifying metadata removed, ` +
      `${report.done - report.changed - report.unreadable} had none.`,
  );
  if (report.unreadable > 0) {
    console.error(`${report.unreadable} photos could not be read as images and were left as they are (see the log).`);
    process.exitCode = 1;
  }
} catch (err) {
  bar.done();
  console.error(`Photo cleanup stopped: ${(err as Error).message}. Run the command again to continue where it stopped.`);
  process.exitCode = 1;
} finally {
  await app.close();
}
