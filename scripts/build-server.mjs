// Transpiles the server (server/, common/) file by file into build/, so `npm start` runs plain
// JavaScript on Node: no TypeScript compiler in the running server (about 100 MB less memory
// and a faster start than running through tsx). The folder layout is kept, so modules and
// migrations are still found by their folders, and the .fbs schemas are copied beside their
// modules. Skipped when build/ is newer than every source (--force rebuilds), so a production
// install without the build tools starts from its bundle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'build');
const stamp = path.join(out, '.built');

function filesOf(dir, wanted) {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return filesOf(rel, wanted);
    return wanted(e.name) ? [rel] : [];
  });
}
const tsFiles = (dir) => filesOf(dir, (name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));

if (!fs.existsSync(path.join(root, 'server'))) {
  // A bundle-only install: build/ is all there is.
  if (fs.existsSync(path.join(out, 'server', 'main.js'))) process.exit(0);
  console.error('No server sources and no build/ to start from.');
  process.exit(1);
}
const entryPoints = [...tsFiles('server'), ...tsFiles('common')];
// Files the server reads next to its modules (the TFLite schemas), copied as they are.
const assets = filesOf('server', (name) => name.endsWith('.fbs'));
const sources = [...entryPoints, ...assets];
const builtAt = fs.existsSync(stamp) ? fs.statSync(stamp).mtimeMs : 0;
// A deleted source leaves its old output behind; the file list is part of the stamp.
const sameFiles = builtAt > 0 && fs.readFileSync(stamp, 'utf8') === sources.join('\n');
const fresh = sameFiles && sources.every((f) => fs.statSync(path.join(root, f)).mtimeMs <= builtAt);

if (process.argv.includes('--force') || !fresh) {
  let build;
  try {
    ({ build } = await import('esbuild'));
  } catch {
    if (builtAt > 0) {
      console.warn('build/ is older than the sources but esbuild is not installed (production install): starting the existing build.');
      process.exit(0);
    }
    console.error('No server build in build/ and no esbuild to make one: run `npm run build` where dev dependencies are installed.');
    process.exit(1);
  }
  fs.rmSync(out, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: out,
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    sourcemap: false,
    logLevel: 'warning',
  });
  for (const file of assets) fs.cpSync(path.join(root, file), path.join(out, file));
  fs.writeFileSync(path.join(out, 'package.json'), JSON.stringify({ type: 'module' }));
  fs.writeFileSync(stamp, sources.join('\n'));
}
