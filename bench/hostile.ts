/**
 * npm run bench:hostile: every file of the hostile corpus (tests/fixtures/hostile-files.ts) sent
 * over HTTP to the built server started as `npm start` starts it (its heap sizes included), on
 * SQLite, while /api/health is asked every 50 ms on a connection of its own. Prints, per parser
 * and hostile kind, the answer, the time, the server's RSS rise (read from /proc) and the longest
 * health-check wait, each the median of --runs runs (3). --only <text> keeps the cases whose name
 * holds it.
 */
import http from 'node:http';
import { HOSTILE_CASES, hostileRequest } from '../tests/fixtures/hostile-files.js';
import { benchDatabase, benchLogin, median, option, rssMb, startBuiltServer, stopBuiltServer } from './support.js';

const runs = Number(option('runs', '3'));
const only = option('only', '');
const admin = { username: 'hostile_bench', password: 'Hostile#Bench1' };

/** A request over its own connection: status, body text, milliseconds. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function main() {
  const db = await benchDatabase('sqlite', '', 'palayan-hostile-');
  const server = await startBuiltServer(
    {
      DATA_DIR: db.dataDir,
      DATABASE_URL: '',
      INITIAL_ADMIN_USERNAME: admin.username,
      INITIAL_ADMIN_PASSWORD: admin.password,
      INITIAL_ADMIN_EMAIL: 'hostile@example.gov.ph',
      INITIAL_ADMIN_FULLNAME: 'Hostile Bench',
      LOGIN_RATE_LIMIT_PER_MINUTE: '1000',
    },
    ['--max-semi-space-size=2', `--max-old-space-size=${process.env.MAX_HEAP_MB ?? 384}`],
  );
  const pid = server.child.pid!;
  const rows: string[] = [];
  try {
    const cookie = await benchLogin(server.url, admin);
    const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const health = () =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        http
          .get(`${server.url}/api/health`, { agent: healthAgent }, (res) => {
            res.resume();
            res.on('end', () => resolve(performance.now() - started));
          })
          .on('error', () => resolve(Infinity));
      });
    for (const c of HOSTILE_CASES.filter((x) => x.name.includes(only))) {
      const req = hostileRequest(c.target, await c.file(), c.labels?.());
      const times: number[] = [];
      const rises: number[] = [];
      const waits: number[] = [];
      let answer = '';
      for (let i = 0; i < runs; i += 1) {
        const base = rssMb(pid);
        let peak = base;
        let worst = 0;
        let waiting = false;
        let sentAt = 0;
        const sampler = setInterval(() => {
          peak = Math.max(peak, rssMb(pid));
        }, 20);
        const poller = setInterval(() => {
          if (waiting) return;
          waiting = true;
          sentAt = performance.now();
          void health().then((ms) => {
            worst = Math.max(worst, ms);
            waiting = false;
          });
        }, 50);
        const res = await send(`${server.url}${req.url}`, 'POST', { cookie, 'content-type': req.contentType }, req.payload);
        clearInterval(sampler);
        clearInterval(poller);
        if (waiting) worst = Math.max(worst, performance.now() - sentAt);
        peak = Math.max(peak, rssMb(pid));
        times.push(res.ms);
        rises.push(peak - base);
        waits.push(worst);
        let message = '';
        try {
          message = (JSON.parse(res.text) as { error?: { message?: string } }).error?.message ?? '';
        } catch {
          /* not JSON */
        }
        answer = `${res.status}${message ? ` ${message.length > 60 ? `${message.slice(0, 57)}…` : message}` : ''}`;
      }
      const row = `| ${c.parser} | ${c.kind} | ${c.name} | ${(req.payload.length / 1024 / 1024).toFixed(1)} MB | ${answer} | ${median(times).toFixed(0)} ms | ${median(rises).toFixed(0)} MB | ${median(waits).toFixed(0)} ms |`;
      console.log(row);
      rows.push(row);
    }
    healthAgent.destroy();
    const alive = await send(`${server.url}/api/health`, 'GET', {});
    console.log(`\nThe server answers /api/health with ${alive.status} after the corpus; its RSS is ${rssMb(pid).toFixed(0)} MB.`);
  } finally {
    await stopBuiltServer(server.child);
    await db.drop();
  }
  console.log(
    `\n| parser | kind | file | size | answer | time | RSS rise | longest health wait |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n${rows.join('\n')}`,
  );
  console.log(`(medians of ${runs} runs each; health asked every 50 ms)`);
}

await main();
