/**
 * The database faults of bench/chaos.ts: the server killed with SIGKILL in the middle of creates
 * (SQLite or PostgreSQL), and PostgreSQL ending the server's connections under load.
 */
import pg from 'pg';
import { benchDatabase, benchPgUrl, freePort } from './support.js';
import {
  Tally,
  call,
  createVariety,
  kill9,
  login,
  msUntil,
  openData,
  rand,
  runCli,
  searchVarieties,
  sleep,
  startServer,
  stopServer,
  varietyBody,
  type Server,
} from './chaos-kit.js';

export type Engine = 'sqlite' | 'postgres';
export interface Row {
  fault: string;
  engine: string;
  answers: string;
  process: string;
  servedAgain: string;
  checks: string[];
  failures: string[];
}

const CREATES = 200;
const CLIENTS = 8;

/** 8 clients, 200 creates in all; SIGKILL once 100 are answered, restart on the same data, finish the rest. */
export async function killUnderLoad(engine: Engine): Promise<Row> {
  const row: Row = { fault: 'kill -9 under load', engine, answers: '', process: '', servedAgain: '', checks: [], failures: [] };
  const db = await benchDatabase(engine, benchPgUrl(), 'palayan-chaos-kill-');
  const port = await freePort();
  const options = { port, dataDir: db.dataDir, databaseUrl: db.databaseUrl, env: { EVENT_CHANNEL: `chaos_${rand()}` } };
  let server: Server | undefined;
  try {
    server = await startServer({ ...options, log: `kill-${engine}-1` });
    let cookie = await login(server.url);
    const tally = new Tally();
    const created = new Map<string, string>();
    const unknown = new Set<string>();
    const inFlight = new Set<string>();
    let sent = 0;
    let answered = 0;
    let gate: Promise<void> | null = null;
    let killToServingMs = 0;
    let restartMs = 0;
    const restart = async () => {
      const killedAt = performance.now();
      row.checks.push(`killed while ${inFlight.size} creates awaited their answer`);
      await kill9(server!);
      server = await startServer({ ...options, log: `kill-${engine}-2` });
      restartMs = server.startedInMs;
      cookie = await login(server.url);
      killToServingMs = Math.round(performance.now() - killedAt);
    };
    const deadline = Date.now() + 120_000;
    const client = async () => {
      while (sent < CREATES && Date.now() < deadline) {
        if (gate) await gate;
        sent += 1;
        const body = varietyBody();
        const name = String(body.varietyName);
        inFlight.add(name);
        const answer = tally.add(await createVariety(server!.url, cookie, body));
        inFlight.delete(name);
        answered += 1;
        if (answer.status === 201) created.set(String(answer.body.id), name);
        else if (answer.status === 0) unknown.add(name);
        if (answered === CREATES / 2 && !gate) gate = restart();
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    if (gate) await gate;
    row.answers = tally.summary();
    row.process = 'killed, restarted';
    row.servedAgain = `restart ${restartMs} ms; kill → signed in again ${killToServingMs} ms`;
    const after = await searchVarieties(server.url, cookie, 'Chaos');
    if (after.status !== 200) row.failures.push(`search after restart: ${after.status}`);
    await stopServer(server);

    const data = await openData(db.dataDir, db.databaseUrl);
    try {
      const names = new Map(
        (await data.all('select "id", "varietyName" from rice_seed_varieties')).map((r) => [String(r.id), String(r.varietyName)]),
      );
      const audited = new Set((await data.all('select "documentId" from audit_logs')).map((r) => String(r.documentId)));
      const versioned = new Set((await data.all('select "documentId" from record_versions')).map((r) => String(r.documentId)));
      const lost = [...created.keys()].filter((id) => !names.has(id) || !audited.has(id) || !versioned.has(id));
      const partial = [...names.keys()].filter((id) => !audited.has(id) || !versioned.has(id));
      const committedUnknown = [...names.values()].filter((n) => unknown.has(n)).length;
      row.checks.push(`${created.size} × 201: ${created.size - lost.length} with row + audit + version`);
      row.checks.push(`${unknown.size} unanswered: ${committedUnknown} committed, ${unknown.size - committedUnknown} not`);
      if (lost.length) row.failures.push(`${lost.length} acknowledged creates lost or incomplete`);
      if (partial.length) row.failures.push(`${partial.length} rows without their audit entry or version`);
      // Only the requests in flight at the kill may go unanswered; none may fail.
      const odd = tally.unexpected(['2xx']).filter((k) => !k.startsWith('0 '));
      if (odd.length) row.failures.push(`unexpected answers: ${odd.join(', ')}`);
    } finally {
      await data.close();
    }
    const verify = await runCli(['audit-verify', '--quiet'], db.dataDir, db.databaseUrl);
    row.checks.push(`audit-verify: ${verify.code === 0 ? 'intact' : `exit ${verify.code}: ${verify.out}`}`);
    if (verify.code !== 0) row.failures.push('audit chain does not verify');
    return row;
  } finally {
    await stopServer(server);
    await db.drop();
  }
}

/** 8 clients creating and searching for ~5 s while every connection of the instance is ended 30 times. */
export async function terminateConnections(): Promise<Row> {
  const row: Row = {
    fault: 'PG connections ended under load',
    engine: 'postgres',
    answers: '',
    process: '',
    servedAgain: '',
    checks: [],
    failures: [],
  };
  const db = await benchDatabase('postgres', benchPgUrl(), 'palayan-chaos-terminate-');
  const instance = `chaos-${rand()}`;
  const admin = new pg.Client({ connectionString: benchPgUrl(), application_name: 'chaos-terminator' });
  let server: Server | undefined;
  try {
    await admin.connect();
    server = await startServer({
      port: await freePort(),
      dataDir: db.dataDir,
      databaseUrl: db.databaseUrl,
      log: 'terminate',
      env: { INSTANCE_ID: instance, EVENT_CHANNEL: `chaos_${rand()}` },
    });
    const cookie = await login(server.url);
    const url = server.url;
    const tally = new Tally();
    const started = Date.now();
    let loading = true;
    const client = async (n: number) => {
      for (let i = 0; loading && Date.now() - started < 30_000; i += 1) {
        tally.add(i % 2 === 0 ? await createVariety(url, cookie) : await searchVarieties(url, cookie, `Chaos ${(n + i) % 10}`));
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
    await sleep(1000);
    let ended = 0;
    for (let i = 0; i < 30; i += 1) {
      const res = await admin.query(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name like $1 or application_name like $2`,
        [`palayan:${instance}%`, `palayan-events:${instance}%`],
      );
      ended += res.rows.filter((r: { ended: boolean }) => r.ended).length;
      await sleep(100);
    }
    const back = await msUntil(async () => tally.add(await createVariety(url, cookie)).status === 201, 30_000, 10);
    await sleep(Math.max(0, 5000 - (Date.now() - started)));
    loading = false;
    await Promise.all(clients);
    row.answers = tally.summary();
    row.process = server.alive() ? 'alive' : 'DIED';
    row.servedAgain = back === null ? 'no create within 30 s' : `create 201 ${back} ms after the last termination`;
    row.checks.push(`${ended} backends ended in 30 rounds`);
    const ready = await call(url, '/api/ready');
    row.checks.push(`/api/ready after: ${ready.status}`);
    if (!server.alive()) row.failures.push('process died');
    if (back === null) row.failures.push('no successful create after the terminations');
    const odd = tally.unexpected(['2xx', '503 DATABASE_UNAVAILABLE']);
    if (odd.length) row.failures.push(`unexpected answers: ${odd.join(', ')}`);
    if (ended === 0) row.failures.push('no backend was ended (application_name not matched)');
    return row;
  } finally {
    await stopServer(server);
    await admin.end().catch(() => undefined);
    await db.drop();
  }
}
