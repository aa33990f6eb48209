import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { importFirestoreCollections, readExportFile } from '../modules/operations/migration/index.js';
import type { ExportCollections } from '../modules/operations/migration/index.js';
import { progressBar } from './progress.js';

// --allow-private-addresses: the export's images are on a server of the department's own
// network (a Firebase emulator, a mirror on the intranet); otherwise such addresses are refused.
const usage = 'Usage: npm run import -- <export.json> [--dry-run] [--no-fetch] [--allow-private-addresses]';
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'dry-run': { type: 'boolean', default: false },
    'no-fetch': { type: 'boolean', default: false },
    'allow-private-addresses': { type: 'boolean', default: false },
  },
});
const file = positionals[0];
if (!file || !fs.existsSync(file)) {
  console.error(file ? `No such file: ${file}\n${usage}` : usage);
  process.exit(2);
}
const { app, ctx } = await buildApp(loadConfig(process.env, { logLevel: 'warn' }), { logger: false });
let collections: ExportCollections;
try {
  collections = await readExportFile(ctx, file);
} catch (err) {
  console.error(`${file}: ${(err as Error).message}`);
  await app.close();
  process.exit(2);
}
const bar = progressBar(values['dry-run'] ? 'Checking' : 'Importing');
try {
  const report = await importFirestoreCollections(ctx, collections, {
    dryRun: values['dry-run'],
    fetchImages: !values['no-fetch'],
    allowPrivateAddresses: values['allow-private-addresses'],
    onProgress: ({ phase, done, total }) => bar.update(done, total, phase),
  });
  bar.done();
  console.log(report.dryRun ? '\nDry run: nothing was written.' : '\nImport finished.');
  console.log('collection'.padEnd(22), 'created'.padStart(8), 'updated'.padStart(8), 'unchanged'.padStart(10), 'skipped'.padStart(8));
  for (const [collection, n] of Object.entries(report.counts)) {
    console.log(
      collection.padEnd(22),
      String(n.created).padStart(8),
      String(n.updated).padStart(8),
      String(n.unchanged).padStart(10),
      String(n.skipped).padStart(8),
    );
  }
  console.log(
    `images: ${report.images.fetched} fetched into storage, ${report.images.unchanged} already imported, ` +
      `${report.images.external.length} kept as external links`,
  );
  for (const line of report.images.external) console.log(`  external: ${line}`);
  if (report.problems.length > 0) {
    console.log(`problems (${report.problems.length}):`);
    for (const p of report.problems) console.log(`  - ${p}`);
  }
} finally {
  await app.close();
}
