import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readAnchors } from '../../server/modules/operations/audit-trail/anchors.js';
import { listArchives } from '../../server/modules/operations/audit-trail/archive.js';
import { verifyAuditTrail } from '../../server/modules/operations/audit-trail/check.js';
import { createAuditTrailService } from '../../server/modules/operations/audit-trail/service.js';
import { importFirestoreExport } from '../../server/modules/operations/migration/importer.js';
import { sealAuditChain, SYSTEM_ACTOR, writeAudit } from '../../server/platform/writes/audit.js';
import { createBackup } from '../../server/platform/storage/backup.js';
import { entryHash, GENESIS_HASH } from '../../server/platform/writes/audit-hash.js';
import { createTestApp, type TestApp } from '../fixtures/app.js';
import { loginAs, makeAccount } from '../fixtures/factories.js';
import { DAY, isoAgo, makeEntries } from '../fixtures/history.js';
import { varietyBody } from '../fixtures/varieties.js';

const apps: TestApp[] = [];
async function freshApp(overrides: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const t = await createTestApp(overrides);
  apps.push(t);
  return t;
}
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});

/** n audited writes, each in its own transaction, as services make them; then sealed. */
async function audited(t: TestApp, n: number, label = 'entry'): Promise<void> {
  for (let i = 0; i < n; i++) {
    await writeAudit(t.ctx.db, SYSTEM_ACTOR, {
      action: 'UPDATE',
      collection: 'rice_seed_varieties',
      documentId: `v${i}`,
      documentName: `${label} ${i}`,
      description: `Updated ${label} ${i}`,
    });
  }
  await sealAuditChain(t.ctx.db);
}

/** The chain as stored: each link joined with its entry, in chain order (sealed first). */
const chain = async (t: TestApp) => {
  await sealAuditChain(t.ctx.db);
  return t.ctx.db
    .selectFrom('audit_chain_links as l')
    .innerJoin('audit_logs as a', 'a.seq', 'l.seq')
    .select(['l.seq', 'a.id', 'l.chainIndex', 'l.prevHash', 'l.hash'])
    .orderBy('l.chainIndex')
    .execute();
};
const linkAt = async (t: TestApp, index: number) => {
  await sealAuditChain(t.ctx.db);
  return t.ctx.db
    .selectFrom('audit_chain_links as l')
    .innerJoin('audit_logs as a', 'a.seq', 'l.seq')
    .select(['a.id', 'l.seq'])
    .where('l.chainIndex', '=', index)
    .executeTakeFirstOrThrow();
};
const idAt = async (t: TestApp, index: number) => (await linkAt(t, index)).id;
const deleteEntryAt = async (t: TestApp, index: number) =>
  t.ctx.db
    .deleteFrom('audit_logs')
    .where('seq', '=', (await linkAt(t, index)).seq)
    .execute();

describe('audit chain', () => {
  it('links every audited write to the one before, from the genesis hash, and verifies', async () => {
    const t = await freshApp();
    const me = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const cookie = await loginAs(t.app, me);
    await audited(t, 5);
    const res = await t.app.inject({ method: 'POST', url: '/api/history/x', headers: { cookie } });
    expect(res.statusCode).toBe(404);
    const rows = await chain(t);
    expect(rows.length).toBeGreaterThanOrEqual(6); // the account's CREATE entry and five updates
    expect(rows.map((r) => r.chainIndex)).toEqual(rows.map((_, i) => i + 1));
    expect(rows[0]!.prevHash).toBe(GENESIS_HASH);
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]!.prevHash).toBe(rows[i - 1]!.hash);
      expect(Number(rows[i]!.seq)).toBeGreaterThan(Number(rows[i - 1]!.seq));
    }
    const head = await t.ctx.db.selectFrom('audit_chain').selectAll().executeTakeFirstOrThrow();
    expect(head.lastIndex).toBe(rows.length);
    expect(head.lastHash).toBe(rows.at(-1)!.hash);
    const result = await verifyAuditTrail(t.ctx.db);
    expect(result).toMatchObject({ ok: true, checked: rows.length, problem: null });
  });

  it('hashes what the database gives back, whatever the characters', async () => {
    const t = await freshApp();
    for (const text of [
      'Bigkas ng \u201cpalay\u201d \u2014 ok',
      'lone \ud800 surrogate',
      'tab\tnew\nline \u0007 bell',
      '\u{1F33E} rice',
      'quote " back \\ slash',
      '\u2028\u2029',
    ]) {
      await writeAudit(t.ctx.db, SYSTEM_ACTOR, {
        action: 'UPDATE',
        collection: 'accounts',
        documentId: null,
        documentName: text,
        description: text,
        details: { text },
      });
    }
    expect(await verifyAuditTrail(t.ctx.db)).toMatchObject({ ok: true, checked: 6 });
  });

  it('names the entry whose field was changed', async () => {
    const t = await freshApp();
    await audited(t, 12);
    const id = await idAt(t, 7);
    await t.ctx.db.updateTable('audit_logs').set({ description: 'Nothing happened here' }).where('id', '=', id).execute();
    const result = await verifyAuditTrail(t.ctx.db);
    expect(result.ok).toBe(false);
    expect(result.problem).toMatchObject({ kind: 'changed', index: 7, id });
    expect(result.problem!.message).toBe(`Entry #7 (${id}) was changed after it was written.`);
    expect(result.checked).toBe(6);
  });

  it('names the entry that was removed, in the middle and at the end', async () => {
    const t = await freshApp();
    await audited(t, 10);
    const next = await idAt(t, 5);
    await deleteEntryAt(t, 4);
    expect((await verifyAuditTrail(t.ctx.db)).problem).toMatchObject({ kind: 'removed', index: 4 });
    expect((await verifyAuditTrail(t.ctx.db)).problem!.message).toBe(
      `Entry #4 is missing: it was removed (the chain continues at #5, ${next}).`,
    );

    const u = await freshApp();
    await audited(u, 10);
    await deleteEntryAt(u, 10);
    expect((await verifyAuditTrail(u.ctx.db)).problem).toMatchObject({ kind: 'removed', index: 10 });

    // Removing one and renumbering the rest so no gap shows is caught by the broken link.
    const v = await freshApp();
    await audited(v, 10);
    await deleteEntryAt(v, 3);
    await v.ctx.db.deleteFrom('audit_chain_links').where('chainIndex', '=', 3).execute();
    await sql`update audit_chain_links set "chainIndex" = "chainIndex" + 1000 where "chainIndex" > 3`.execute(v.ctx.db);
    await sql`update audit_chain_links set "chainIndex" = "chainIndex" - 1001 where "chainIndex" > 1000`.execute(v.ctx.db);
    await v.ctx.db.updateTable('audit_chain').set({ lastIndex: 9 }).execute();
    const renumbered = await verifyAuditTrail(v.ctx.db);
    expect(renumbered.problem).toMatchObject({ kind: 'out-of-order', index: 3, id: await idAt(v, 3) });
  });

  it('names the first of two entries that were swapped (by position or by seq)', async () => {
    const t = await freshApp();
    await audited(t, 10);
    const b = await idAt(t, 8);
    await t.ctx.db.updateTable('audit_chain_links').set({ chainIndex: -1 }).where('chainIndex', '=', 3).execute();
    await t.ctx.db.updateTable('audit_chain_links').set({ chainIndex: 3 }).where('chainIndex', '=', 8).execute();
    await t.ctx.db.updateTable('audit_chain_links').set({ chainIndex: 8 }).where('chainIndex', '=', -1).execute();
    const result = await verifyAuditTrail(t.ctx.db);
    expect(result.problem).toMatchObject({ kind: 'out-of-order', index: 3, id: b });
    expect(result.problem!.message).toBe(
      `Entry #3 (${b}) does not follow the entry before it: entries were inserted, removed or reordered here.`,
    );

    // The History screen lists by seq, which is hashed: swapping two rows' seq (their listed order) is caught too.
    const u = await freshApp();
    await audited(u, 6);
    const rows = await chain(u);
    const [s2, s5] = [Number(rows[1]!.seq), Number(rows[4]!.seq)];
    await u.ctx.db.updateTable('audit_logs').set({ seq: -5 }).where('seq', '=', s2).execute();
    await u.ctx.db.updateTable('audit_logs').set({ seq: s2 }).where('seq', '=', s5).execute();
    await u.ctx.db.updateTable('audit_logs').set({ seq: s5 }).where('seq', '=', -5).execute();
    expect((await verifyAuditTrail(u.ctx.db)).problem).toMatchObject({ kind: 'changed', index: 2, id: rows[4]!.id });
  });

  it('chains entries right after they commit; finds entries written around the console, and a whole chain rewritten after an anchor', async () => {
    const t = await freshApp();
    for (let i = 0; i < 3; i++)
      await writeAudit(t.ctx.db, SYSTEM_ACTOR, {
        action: 'UPDATE',
        collection: 'accounts',
        documentId: null,
        documentName: `n${i}`,
        description: 'x',
      });
    // No explicit seal: the running server's sealer chains them (nudged by the append, or its 1 s round).
    const waiting = async () => (await t.ctx.db.selectFrom('audit_pending').select('seq').execute()).length;
    for (let i = 0; i < 60 && (await waiting()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await waiting()).toBe(0);
    expect(await verifyAuditTrail(t.ctx.db, { seal: false })).toMatchObject({ ok: true, checked: 3 });
    await t.ctx.db
      .insertInto('audit_logs')
      .values({ id: 'written-by-hand', timestamp: new Date().toISOString(), action: 'DELETE' })
      .execute();
    const forged = await verifyAuditTrail(t.ctx.db);
    expect(forged.problem).toMatchObject({ kind: 'unchained', id: 'written-by-hand' });
    expect(forged.problem!.message).toBe(
      '1 entry is not part of the chain (written into the database around the console), first written-by-hand.',
    );

    const u = await freshApp();
    await audited(u, 6);
    const service = createAuditTrailService(u.ctx);
    const anchor = await service.anchor();
    expect(anchor.index).toBe(6);
    // Someone with the database file changes entry 2 and recomputes every hash and the head.
    await u.ctx.db
      .updateTable('audit_logs')
      .set({ documentName: 'Rewritten' })
      .where('id', '=', await idAt(u, 2))
      .execute();
    let prev = GENESIS_HASH;
    const rows = await u.ctx.db
      .selectFrom('audit_chain_links as l')
      .innerJoin('audit_logs as a', 'a.seq', 'l.seq')
      .selectAll('a')
      .select('l.chainIndex')
      .orderBy('l.chainIndex')
      .execute();
    for (const row of rows) {
      const hash = entryHash(prev, { ...row, seq: Number(row.seq) });
      await u.ctx.db.updateTable('audit_chain_links').set({ prevHash: prev, hash }).where('chainIndex', '=', row.chainIndex).execute();
      prev = hash;
    }
    await u.ctx.db.updateTable('audit_chain').set({ lastHash: prev }).execute();
    expect((await verifyAuditTrail(u.ctx.db)).ok).toBe(true); // internally consistent again…
    const { checks } = await readAnchors(u.ctx.config.dataDir);
    const withAnchor = await verifyAuditTrail(u.ctx.db, { anchors: checks });
    expect(withAnchor.problem).toMatchObject({ kind: 'anchor', index: 6 }); // …but not with the anchor
  });

  it('keeps one valid chain under concurrent writers (requests and direct writes together)', async () => {
    const t = await freshApp();
    const me = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const cookie = await loginAs(t.app, me);
    const creates = Array.from({ length: 30 }, (_, i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/varieties',
        headers: { cookie, origin: 'http://localhost' },
        payload: varietyBody({ varietyName: `Concurrent ${i}` }),
      }),
    );
    const direct = Array.from({ length: 30 }, (_, i) =>
      t.ctx.db.transaction().execute(async (trx) => {
        await writeAudit(trx, SYSTEM_ACTOR, {
          action: 'UPDATE',
          collection: 'accounts',
          documentId: null,
          documentName: `direct ${i}`,
          description: 'x',
        });
        await new Promise((r) => setTimeout(r, 2)); // hold the transaction open a moment
        await writeAudit(trx, SYSTEM_ACTOR, {
          action: 'UPDATE',
          collection: 'accounts',
          documentId: null,
          documentName: `direct ${i} again`,
          description: 'y',
        });
      }),
    );
    const responses = await Promise.all(creates);
    await Promise.all(direct);
    const created = responses.filter((r) => r.statusCode === 201).length;
    expect(
      created,
      responses
        .map((r) => r.body)
        .join('\n')
        .slice(0, 500),
    ).toBe(30);
    const result = await verifyAuditTrail(t.ctx.db);
    expect(result).toMatchObject({ ok: true, problem: null });
    const count = Number(
      (
        await t.ctx.db
          .selectFrom('audit_logs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(result.checked).toBe(count);
    expect(count).toBeGreaterThanOrEqual(1 + 30 + 60);
  });

  it('keeps one chain while another process (the import command) appends at the same time', async () => {
    const t = await freshApp();
    const legacy = Object.fromEntries(
      Array.from({ length: 1500 }, (_, i) => [
        `legacy-${i}`,
        {
          userName: 'Rosa Dizon',
          timestamp: isoAgo((900 - i / 2) * DAY),
          action: 'UPDATE',
          collection: 'rice_seed_varieties',
          documentName: `NSIC Rc ${i}`,
        },
      ]),
    );
    const file = path.join(t.ctx.config.dataDir, 'export.json');
    fs.writeFileSync(file, JSON.stringify({ audit_logs: legacy }));
    const env = { ...process.env, DATA_DIR: t.ctx.config.dataDir, DATABASE_URL: t.ctx.config.databaseUrl ?? '' };
    const importing = new Promise<{ code: number; out: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'server/cli/import.ts', file, '--no-fetch'],
        { env, cwd: path.join(import.meta.dirname, '../..') },
        (err, stdout, stderr) => {
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr });
        },
      );
    });
    let written = 0;
    let done = false;
    void importing.then(() => {
      done = true;
    });
    while (!done || written < 50) {
      await audited(t, 1, `server ${written}`);
      written += 1;
      await new Promise((r) => setImmediate(r)); // let the child's exit be seen (SQLite calls never yield)
    }
    const result = await importing;
    expect(result.code, result.out).toBe(0);
    const check = await verifyAuditTrail(t.ctx.db);
    expect(check).toMatchObject({ ok: true, problem: null });
    expect(check.checked).toBe(1500 + written + 1); // the import's own summary entry too
  }, 60_000);

  it('chains legacy entries at import, once', async () => {
    const t = await freshApp();
    const exportJson = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/firestore-export.json'), 'utf8'));
    const legacy = Object.keys(exportJson.audit_logs).length;
    await importFirestoreExport(t.ctx, exportJson);
    const first = await verifyAuditTrail(t.ctx.db);
    expect(first.ok).toBe(true);
    const chained = await t.ctx.db
      .selectFrom('audit_logs as a')
      .innerJoin('audit_chain_links as l', 'l.seq', 'a.seq')
      .select('a.id')
      .where('a.id', 'in', Object.keys(exportJson.audit_logs))
      .execute();
    expect(chained).toHaveLength(legacy);
    const again = await importFirestoreExport(t.ctx, exportJson);
    expect(again.counts.audit_logs).toMatchObject({ created: 0, unchanged: legacy });
    expect((await verifyAuditTrail(t.ctx.db)).ok).toBe(true);
  });
});

describe('retention', () => {
  it('archives the old start of the chain, removes it, and loses nothing: archive plus live chain verify end to end', async () => {
    const t = await freshApp({ auditRetentionDays: 30 });
    await makeEntries(
      t.ctx,
      Array.from({ length: 2500 }, (_, i) => ({ timestamp: isoAgo((400 - i / 10) * DAY), description: `old ${i}` })),
    );
    await makeEntries(t.ctx, [
      { timestamp: isoAgo(2 * DAY), description: 'recent' },
      { timestamp: isoAgo(90 * DAY), description: 'old but after a recent one' },
    ]);
    await audited(t, 3, 'today');
    const before = await chain(t);
    const service = createAuditTrailService(t.ctx);
    const result = await service.applyRetention();
    expect(result).toMatchObject({ count: 2500, firstIndex: 1, lastIndex: 2500 });
    expect(fs.statSync(result!.file).mode & 0o777).toBe(0o600);

    const after = await chain(t);
    expect(after.map((r) => r.id)).toEqual([...before.slice(2500).map((r) => r.id), expect.any(String)]);
    const summary = await t.ctx.db.selectFrom('audit_logs').selectAll().where('id', '=', after.at(-1)!.id).executeTakeFirstOrThrow();
    expect(summary).toMatchObject({ action: 'DELETE', collection: 'audit_logs', userName: 'System User' });
    expect(summary.description).toContain('Archived 2,500 history entries (#1–#2500, older than 30 days)');
    expect(JSON.parse(summary.details!)).toMatchObject({ count: 2500, sha256: result!.sha256 });

    // The live chain verifies from its new base; with the archive, from the genesis hash.
    expect(await verifyAuditTrail(t.ctx.db)).toMatchObject({ ok: true, checked: after.length });
    expect(await verifyAuditTrail(t.ctx.db, { archives: [result!.file] })).toMatchObject({ ok: true, checked: 2500 + after.length });
    // Every archived entry is in the file, in order, with its content.
    const lines = zlib.gunzipSync(fs.readFileSync(result!.file)).toString('utf8').trim().split('\n');
    expect(lines).toHaveLength(2501);
    expect(lines.slice(1).map((l) => JSON.parse(l).id)).toEqual(before.slice(0, 2500).map((r) => r.id));
    expect(await listArchives(t.ctx.config.dataDir)).toEqual([expect.objectContaining({ firstIndex: 1, lastIndex: 2500, count: 2500 })]);

    // A second run finds nothing new to archive (the old entry behind a recent one stays, in order).
    expect(await service.applyRetention()).toBeNull();

    // An archive edited afterwards is caught, naming the entry.
    const tampered = path.join(path.dirname(result!.file), 'tampered.jsonl.gz');
    const edited = lines.map((l, i) => (i === 42 ? l.replace('"old 41"', '"nothing"') : l)).join('\n');
    fs.writeFileSync(tampered, zlib.gzipSync(edited));
    const bad = await verifyAuditTrail(t.ctx.db, { archives: [tampered] });
    expect(bad.problem).toMatchObject({ kind: 'changed', index: 42, id: before[41]!.id });
  });

  it('is off without AUDIT_RETENTION_DAYS, and reads an archive back as the History CSV', async () => {
    const keep = await freshApp();
    await makeEntries(keep.ctx, [{ timestamp: isoAgo(5000 * DAY), description: 'very old' }]);
    expect(await createAuditTrailService(keep.ctx).applyRetention()).toBeNull();

    const t = await freshApp({ auditRetentionDays: 10 });
    await makeEntries(t.ctx, [
      {
        timestamp: '2024-01-02T03:04:05.000Z',
        userName: 'Ana, "the" admin',
        action: 'CREATE',
        collection: 'rice_local_pests',
        documentName: 'Rice bug',
        description: 'Added',
      },
      {
        timestamp: '2024-01-03T03:04:05.000Z',
        userName: 'Ben',
        action: 'DELETE',
        collection: 'rice_seed_varieties',
        name: 'NSIC Rc 9',
        description: 'Removed',
      },
    ]);
    const result = await createAuditTrailService(t.ctx).applyRetention();
    expect(result!.count).toBe(2);
    const me = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const cookie = await loginAs(t.app, me);
    const file = path.basename(result!.file);
    const res = await t.app.inject({ url: `/api/audit-trail/archives/${file}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.startsWith('\ufeff')).toBe(true);
    expect(res.body.endsWith('\r\n')).toBe(true);
    const csv = res.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('Timestamp,User,Action,Collection,Document,Description');
    expect(csv.slice(1)).toHaveLength(2);
    expect(csv[1]).toContain('"Ana, ""the"" admin",CREATE,');
    expect(csv[2]).toContain(',Ben,DELETE,');
    expect(csv[2]).toContain('NSIC Rc 9');
    const status = (await t.app.inject({ url: '/api/audit-trail', headers: { cookie } })).json();
    expect(status.archives).toEqual([expect.objectContaining({ file, count: 2 })]);
    expect(status.retentionDays).toBe(10);
    expect(
      (await t.app.inject({ url: '/api/audit-trail/archives/audit-1-2-20240101T000000Z.jsonl.gz', headers: { cookie } })).statusCode,
    ).toBe(404);
    // A backup carries the archive: it is the only copy of the entries it took.
    if (t.engine === 'sqlite') {
      const out = path.join(t.ctx.config.dataDir, '..', `${path.basename(t.ctx.config.dataDir)}-backup`);
      try {
        await createBackup(t.ctx.config, out);
        expect(fs.readFileSync(path.join(out, 'audit-archive', file))).toEqual(fs.readFileSync(result!.file));
      } finally {
        fs.rmSync(out, { recursive: true, force: true });
      }
    }
    expect((await t.app.inject({ url: '/api/audit-trail/archives/..%2F..%2Fsecret.jsonl.gz', headers: { cookie } })).statusCode).toBe(400);
  });
});

describe('verification, anchors and the daily run', () => {
  let smtp: SMTPServer;
  let port = 0;
  const inbox: Array<{ to: string[]; raw: string }> = [];
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    port = (smtp.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('Verify now runs in the background and the status shows its result; a failure names the entry', async () => {
    const t = await freshApp();
    const me = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    const cookie = await loginAs(t.app, me);
    await audited(t, 20);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/audit-trail/verifications',
      headers: { cookie, origin: 'http://localhost' },
    });
    expect(started.statusCode).toBe(202);
    expect(started.json()).toMatchObject({ status: 'running', trigger: 'manual' });
    const waitFor = async (status: string) => {
      for (let i = 0; i < 100; i++) {
        const s = (await t.app.inject({ url: '/api/audit-trail', headers: { cookie } })).json();
        if (s.last?.status === status) return s;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`verification never reached ${status}`);
    };
    const ok = await waitFor('ok');
    expect(ok.last).toMatchObject({ checked: ok.head.entries, problem: null });
    expect(ok.head.index).toBe(ok.head.entries);

    const id = await idAt(t, 5);
    await t.ctx.db.updateTable('audit_logs').set({ userName: 'Someone else' }).where('id', '=', id).execute();
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/audit-trail/verifications', headers: { cookie, origin: 'http://localhost' } }))
        .statusCode,
    ).toBe(202);
    const failed = await waitFor('failed');
    expect(failed.last).toMatchObject({ problemIndex: 5, problemId: id, problem: `Entry #5 (${id}) was changed after it was written.` });
  });

  it('writes an anchor file and emails it to the super admins; the daily run happens once per day across instances', async () => {
    const t = await freshApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
    const boss = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN' });
    await makeAccount(t.ctx, { role: 'ADMIN' });
    const cookie = await loginAs(t.app, boss);
    inbox.length = 0;
    const res = await t.app.inject({ method: 'POST', url: '/api/audit-trail/anchors', headers: { cookie, origin: 'http://localhost' } });
    expect(res.statusCode).toBe(201);
    const anchor = res.json();
    expect(anchor).toMatchObject({ emailed: 1 });
    const onDisk = JSON.parse(fs.readFileSync(path.join(t.ctx.config.dataDir, 'audit-anchors', anchor.file), 'utf8'));
    expect(onDisk).toMatchObject({ index: anchor.index, hash: anchor.hash });
    expect(inbox).toHaveLength(1);
    expect(inbox[0]!.to).toEqual([boss.email]);
    expect(inbox[0]!.raw.replace(/=\r?\n/g, '')).toContain(anchor.hash);

    const service = createAuditTrailService(t.ctx);
    const other = createAuditTrailService(t.ctx); // a second instance on the same database
    const now = Date.now();
    const [a, b] = await Promise.all([service.daily(now), other.daily(now)]);
    expect([a, b].filter(Boolean)).toHaveLength(1);
    expect(await service.daily(now + 60 * 60_000)).toBe(false);
    expect(await service.daily(now + 24 * 60 * 60_000)).toBe(true);
    const status = await service.status();
    expect(status.last).toMatchObject({ status: 'ok', trigger: 'daily' });
    expect((await readAnchors(t.ctx.config.dataDir)).checks.length).toBe(3);
  });

  it('npm run audit:verify exits 0 when intact and 1 naming the changed entry', async () => {
    const t = await freshApp();
    await audited(t, 8);
    const run = () =>
      new Promise<{ code: number; out: string }>((resolve) => {
        const env = { ...process.env, DATA_DIR: t.ctx.config.dataDir, DATABASE_URL: t.ctx.config.databaseUrl ?? '' };
        execFile(
          process.execPath,
          ['--import', 'tsx', 'server/cli/audit-verify.ts', '--quiet'],
          { env, cwd: path.join(import.meta.dirname, '../..') },
          (err, stdout, stderr) => {
            resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr });
          },
        );
      });
    const good = await run();
    expect(good.out).toContain('Audit trail intact: 8 entries in order up to #8');
    expect(good.code).toBe(0);
    const id = await idAt(t, 3);
    await t.ctx.db.updateTable('audit_logs').set({ timestamp: '2020-01-01T00:00:00.000Z' }).where('id', '=', id).execute();
    const bad = await run();
    expect(bad.code).toBe(1);
    expect(bad.out).toContain(`Entry #3 (${id}) was changed after it was written.`);
  }, 60_000);
});
