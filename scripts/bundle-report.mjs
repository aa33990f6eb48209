// `npm run build:report`: builds the browser app with the bundle visualiser (treemap in
// .tmp/report/bundle-report.html) and prints, for each JavaScript chunk, the packages and
// folders that weigh most (rendered bytes, brotli), so what the login screen loads is visible.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.tmp', 'report');
fs.mkdirSync(out, { recursive: true });
execFileSync(process.execPath, [path.join(root, 'scripts', 'build-client.mjs'), '--force'], {
  stdio: 'inherit',
  env: { ...process.env, BUNDLE_REPORT: out },
});

const data = JSON.parse(fs.readFileSync(path.join(out, 'bundle-report.json'), 'utf8'));
const top = Number(process.argv[2] ?? 8);
function group(id) {
  const nm = id.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = id.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const rel = path.relative(root, id).split(path.sep);
  return rel
    .filter((p) => p !== '..')
    .slice(0, 2)
    .join('/');
}
const chunks = new Map();
for (const [uid, part] of Object.entries(data.nodeParts)) {
  const meta = data.nodeMetas[part.metaUid];
  const chunk = Object.entries(meta.moduleParts).find(([, u]) => u === uid)?.[0] ?? '?';
  const entry = chunks.get(chunk) ?? { gzip: 0, groups: new Map() };
  entry.gzip += part.brotliLength;
  const g = process.env.REPORT_FILES ? meta.id : group(meta.id);
  entry.groups.set(g, (entry.groups.get(g) ?? 0) + part.brotliLength);
  chunks.set(chunk, entry);
}
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
for (const [chunk, entry] of [...chunks].sort((a, b) => b[1].gzip - a[1].gzip)) {
  if (entry.gzip < 2048) continue;
  console.log(`\n${chunk}  ${kb(entry.gzip)} brotli (sum of modules, each compressed alone)`);
  for (const [g, n] of [...entry.groups].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${kb(n).padStart(10)}  ${g}`);
}
console.log(`\nTreemap: ${path.relative(root, path.join(out, 'bundle-report.html'))}`);
