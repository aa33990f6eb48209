// Builds the browser app into dist/client when it is missing or older than its sources,
// so `npm start` works on a fresh clone without a separate build step.
import fs from 'node:fs';
import path from 'node:path';
import { precompress } from './precompress.mjs';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'dist', 'client', 'index.html');
const sources = ['src', 'common', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];

function newestMtime(p) {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const force = process.argv.includes('--force');
const built = fs.existsSync(output) ? fs.statSync(output).mtimeMs : 0;
const stale = force || built === 0 || sources.some((s) => newestMtime(s) > built);
if (stale) {
  let build;
  try {
    ({ build } = await import('vite'));
  } catch {
    // A production install (npm ci --omit=dev) has no Vite: it serves the bundle it was given.
    if (built > 0) {
      console.warn('dist/client looks older than the sources but Vite is not installed (production install): serving the existing build.');
      process.exit(0);
    }
    console.error('No browser build in dist/client and no Vite to make one: run `npm run build` where dev dependencies are installed.');
    process.exit(1);
  }
  console.log('Building the browser app...');
  await build({ root, logLevel: 'warn', configFile: path.join(root, 'vite.config.ts') });
}

const distDir = path.dirname(output);
const marker = path.join(distDir, '.precompressed');
if (stale || !fs.existsSync(marker)) {
  const { raw, br } = await precompress(distDir);
  fs.writeFileSync(marker, new Date().toISOString());
  if (stale) console.log(`Precompressed ${(raw / 1024).toFixed(0)} KiB of assets to ${(br / 1024).toFixed(0)} KiB (brotli).`);
}
