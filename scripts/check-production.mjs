// Proves that a production install starts the console: builds the bundle, copies the project's
// files and the bundle into a fresh folder, installs with `npm ci --omit=dev` (no Vite, no
// TypeScript, no test tools), runs `npm start` on a fresh data folder and checks that the app
// page, a stylesheet or script of it, the API and a sign-in answer. Used by .ci/run.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const seconds = (from) => ((Date.now() - from) / 1000).toFixed(1);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function step(text) {
  console.log(`[production] ${text}`);
}

// The bundle as the build scripts make it (each rebuilds only when a source is newer than it).
execFileSync(process.execPath, ['scripts/build-client.mjs'], { cwd: root, stdio: 'inherit' });
execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-production-'));
const dataDir = path.join(dir, 'data');
let server;
try {
  // The project's own files as a clone has them, then the bundle (newer than every source).
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root }).toString().split('\0').filter(Boolean);
  for (const file of files) {
    if (!fs.existsSync(path.join(root, file))) continue;
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(dir, file));
  }
  for (const bundle of ['dist', 'build']) fs.cpSync(path.join(root, bundle), path.join(dir, bundle), { recursive: true });

  let t = Date.now();
  // Install scripts are left out and the packages that have one (bcrypt, better-sqlite3: compiled
  // from source where their prebuilt binaries are out of reach) are copied from this checkout's
  // own install of the same lockfile, so they are not compiled a second time.
  execFileSync(npm, ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: 'inherit',
  });
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where || entry.dev || !entry.hasInstallScript || !fs.existsSync(path.join(dir, where))) continue;
    fs.cpSync(path.join(root, where), path.join(dir, where), { recursive: true });
  }
  step(`npm ci --omit=dev: ${seconds(t)} s`);
  for (const devOnly of ['vite', 'typescript', 'vitest', '@playwright/test', 'react']) {
    if (fs.existsSync(path.join(dir, 'node_modules', devOnly))) throw new Error(`${devOnly} was installed by a production install`);
  }

  const port = await new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address();
      s.close(() => resolve(p));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  t = Date.now();
  const log = [];
  server = spawn(npm, ['start', '--silent'], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      INITIAL_ADMIN_USERNAME: 'production_check',
      INITIAL_ADMIN_PASSWORD: 'Production#1',
      INITIAL_ADMIN_FULLNAME: 'Production Check',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  server.stdout.on('data', (c) => log.push(c.toString()));
  server.stderr.on('data', (c) => log.push(c.toString()));
  let healthy = false;
  for (const until = Date.now() + 60_000; Date.now() < until && server.exitCode === null;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) {
        healthy = true;
        break;
      }
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  if (!healthy) throw new Error(`npm start did not answer:\n${log.join('')}`);
  step(`npm start answered in ${seconds(t)} s`);

  const page = await fetch(`${base}/login`);
  const html = await page.text();
  if (page.status !== 200 || !html.includes('<div id="root">')) throw new Error(`the app page: ${page.status}`);
  const asset = /(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/.exec(html)?.[1];
  if (!asset || (await fetch(`${base}${asset}`)).status !== 200) throw new Error(`an asset of the app page did not load: ${asset}`);
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: 'production_check', password: 'Production#1' }),
  });
  if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
  step(`the app page, ${asset}, the API and a sign-in answered`);

  // The operations command runs from the bundle, beside the running server, as in the container.
  t = Date.now();
  const cli = (...args) =>
    execFileSync(process.execPath, ['build/server/cli.js', ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
  cli(
    'create-admin',
    '--username',
    'production_ops',
    '--password',
    'Operations#1',
    '--fullname',
    'Production Operations',
    '--email',
    'ops@da.example',
    '--role',
    'ADMIN',
  );
  const opsLogin = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: 'production_ops', password: 'Operations#1' }),
  });
  if (opsLogin.status !== 200) throw new Error(`the account made by 'cli.js create-admin' could not sign in (${opsLogin.status})`);
  const verified = cli('audit-verify');
  if (!/intact/i.test(verified)) throw new Error(`'cli.js audit-verify' did not report an intact chain:\n${verified}`);
  step(`cli.js create-admin and audit-verify ran from the bundle (${seconds(t)} s)`);
  step(`ok (${seconds(started)} s in all)`);
} finally {
  if (server && server.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
