import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';

/**
 * npm run seed: loads the demo content of demo-data/ (copied from the department's demo set).
 * Each module that has demo content exports `seed(ctx, log)` from server/modules/<area>/seed.ts;
 * a seed adds only what is missing, so running it twice changes nothing.
 */
const config = loadConfig(process.env, { logLevel: 'warn' });
const { app, ctx } = await buildApp(config, { logger: false });
const modulesDir = path.join(import.meta.dirname, '..', 'modules');
try {
  for (const area of fs.readdirSync(modulesDir).sort()) {
    const file = ['seed.ts', 'seed.js'].map((f) => path.join(modulesDir, area, f)).find((f) => fs.existsSync(f));
    if (!file) continue;
    const mod = (await import(pathToFileURL(file).href)) as { seed: (c: typeof ctx, log: (line: string) => void) => Promise<void> };
    await mod.seed(ctx, (line) => console.log(`[${area}] ${line}`));
  }
} finally {
  await app.close();
}
