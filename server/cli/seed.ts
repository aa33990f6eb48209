import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { seed as seedCatalog } from '../seed/catalog.js';
import { seed as seedVarieties } from '../seed/varieties.js';

/**
 * npm run seed: loads the demo content of demo-data/ (copied from the department's demo set).
 * Each collection that has demo content has `seed(ctx, log)` in server/seed/<collection>.ts,
 * listed here; a seed adds only what is missing, so running it twice changes nothing.
 */
const SEEDS = [
  ['catalog', seedCatalog],
  ['varieties', seedVarieties],
] as const;

const config = loadConfig(process.env, { logLevel: 'warn' });
const { app, ctx } = await buildApp(config, { logger: false });
try {
  for (const [area, seed] of SEEDS) await seed(ctx, (line) => console.log(`[${area}] ${line}`));
} finally {
  await app.close();
}
