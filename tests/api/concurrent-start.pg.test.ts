import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import { ensureInitialAdmin } from '../../server/bootstrap.js';
import { loadConfig } from '../../server/config.js';

/** Two instances started at the same moment on an empty PostgreSQL database (a fresh deployment). */
const base = process.env.TEST_DATABASE_URL!;
describe('instances starting together', () => {
  it('migrate once, create one first super admin and the option lists once, and both start', async () => {
    const schema = `start_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const databaseUrl = `${base}${base!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'palayan-start-')));
    const lines: string[] = [];
    try {
      const apps = await Promise.all(
        dirs.map((dataDir, i) =>
          buildApp(
            loadConfig(
              {},
              {
                dataDir,
                databaseUrl,
                logLevel: 'silent',
                instanceId: `start-${i}`,
                eventChannel: `events_${schema}`,
                initialAdmin: { username: 'first_admin', password: 'First#Admin1', fullname: 'First Admin' },
              },
            ),
            { logger: false },
          ),
        ),
      );
      await Promise.all(apps.map((a) => ensureInitialAdmin(a.ctx, (l) => lines.push(l))));
      const accounts = await admin.query(`select username from ${schema}.accounts`);
      expect(accounts.rows).toEqual([{ username: 'first_admin' }]);
      const lists = await admin.query(`select id from ${schema}.maintenance order by id`);
      expect(new Set(lists.rows.map((r) => r.id)).size).toBe(lists.rowCount);
      await Promise.all(apps.map((a) => a.app.close()));
    } finally {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    }
  });
});
