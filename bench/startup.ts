/**
 * Cold start and idle memory of `npm start`'s server: spawns the server on a fresh data
 * folder (so first-start work is included: migrations, option lists, first admin), times the
 * first 200 from /api/health and from / (the SPA), then reads the resident memory after it
 * has been idle for a few seconds. Repeats and prints medians.
 * Usage: node scripts/build-server.mjs && npx tsx bench/startup.ts [runs]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rssMb } from './support.js';

const runs = Number(process.argv[2] ?? 5);
const port = 3950;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function waitFor200(url: string, started: number): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.status === 200) {
        await res.arrayBuffer();
        return performance.now() - started;
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

const health: number[] = [];
const page: number[] = [];
const idle: number[] = [];
for (let i = 0; i < runs; i += 1) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['build/server/main.js'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      INITIAL_ADMIN_PASSWORD: 'Bench#12345',
    },
    stdio: 'ignore',
  });
  health.push(await waitFor200(`http://127.0.0.1:${port}/api/health`, started));
  page.push(await waitFor200(`http://127.0.0.1:${port}/login`, started));
  await new Promise((r) => setTimeout(r, 5000));
  idle.push(rssMb(child.pid!));
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
console.log(`runs: ${runs} (fresh data folder each; client already built)`);
console.log(`cold start to first 200 /api/health: median ${median(health).toFixed(0)} ms  [${health.map((x) => x.toFixed(0)).join(', ')}]`);
console.log(`cold start to first 200 /login (SPA):  median ${median(page).toFixed(0)} ms`);
console.log(`idle resident memory after 5 s:       median ${median(idle).toFixed(1)} MB  [${idle.map((x) => x.toFixed(1)).join(', ')}]`);
