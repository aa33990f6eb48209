import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The code map's lint rules (eslint.config.js, docs/ARCHITECTURE.md "Rules the linter keeps"),
// each tried on a deliberate violation at a path where it must hold (the file need not exist).
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const TRANSACTION = 'Writes go through runCommand';
const QUERY = 'Queries live in a repository.ts';
const RAW_SQL = 'Raw SQL (sql`...`) lives in a repository';
const RAW_SQL_CALL = 'Raw SQL (sql.raw, sql.ref, sql.join, sql.lit...) lives in a repository';
const TIMER = 'Schedule background work with scheduleJob';
const INTERVAL = 'Repeat work with every() or scheduleJob';
const COMPUTED_IMPORT = 'Import a module by its name';
const OTHER_ROUTES = "A module never imports another module's routes";
const PLATFORM_IMPORTS_MODULE = 'Platform code never imports a module';
const FACE = 'Import another module through its face';

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

/** The messages ESLint gives `code` as the file at `filePath` (relative to the repository). */
async function lint(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

async function expectFlagged(filePath: string, code: string, ...expected: string[]): Promise<void> {
  const messages = await lint(filePath, code);
  for (const text of expected)
    expect(
      messages.some((m) => m.includes(text)),
      `${filePath}: ${text}\n${messages.join('\n')}`,
    ).toBe(true);
}

/** A TypeScript file of these functions, with the imports they use. */
const file = (...parts: string[]) => `import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
${parts.join('')}`;
const transaction = `export async function work(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async () => undefined);
}
`;
const query = `export function read(db: Kysely<Database>) {
  return db.selectFrom('accounts').selectAll().execute();
}
`;
const rawSql = `export const one = sql<number>\`select 1\`;
export const column = sql.ref('accounts.id');
`;
const timer = `export function start(): void {
  setInterval(() => undefined, 1000);
}
`;
const timeout = `export function later(): void {
  setTimeout(() => undefined, 1000);
}
`;
/** Uses the imports without a query, a transaction or raw SQL. */
const noSql = `export type Db = Kysely<Database>;
export const tag = sql;
`;

describe('server syntax bans (no-restricted-syntax)', () => {
  it('refuses a transaction outside runCommand: in a routes.ts, a service.ts, a repository and platform code', async () => {
    for (const at of [
      'server/modules/example/routes.ts',
      'server/modules/example/service.ts',
      'server/modules/example/repository.ts',
      'server/platform/http/example.ts',
      'server/cli/example.ts',
    ]) {
      await expectFlagged(at, file(noSql, transaction), TRANSACTION);
    }
  });

  it('refuses a query outside a repository: in a service.ts and a routes.ts', async () => {
    await expectFlagged('server/modules/example/service.ts', file(noSql, query), QUERY);
    await expectFlagged('server/modules/example/routes.ts', file(noSql, query), QUERY);
  });

  it('refuses raw sql (the template tag and sql.* calls) outside a repository', async () => {
    await expectFlagged('server/modules/example/service.ts', file(rawSql), RAW_SQL, RAW_SQL_CALL);
    await expectFlagged('server/modules/example/routes.ts', file(rawSql), RAW_SQL, RAW_SQL_CALL);
    await expectFlagged('server/platform/http/example.ts', file(rawSql), RAW_SQL, RAW_SQL_CALL);
  });

  it('refuses an import() of a path worked out at run time in a module and in platform code', async () => {
    const computed = 'export async function load(area: string): Promise<unknown> {\n  return import(`../${area}/routes.js`);\n}\n';
    await expectFlagged('server/modules/anything/service.ts', computed, COMPUTED_IMPORT);
    await expectFlagged('server/platform/support/anything.ts', computed, COMPUTED_IMPORT);
    expect(await lint('server/modules/anything/service.ts', "export const load = () => import('./other.js');\n")).toEqual([]);
  });

  it('refuses a timer in a routes.ts, whose other bans still hold', async () => {
    await expectFlagged(
      'server/modules/example/routes.ts',
      file(timer, transaction, query, rawSql),
      TIMER,
      TRANSACTION,
      QUERY,
      RAW_SQL,
      RAW_SQL_CALL,
    );
  });

  it('refuses a repeating timer anywhere in the server but the one in platform/background/jobs.ts', async () => {
    for (const at of [
      'server/modules/example/service.ts',
      'server/modules/operations/events/routes.ts',
      'server/platform/writes/example.ts',
      'server/db/example.ts',
    ]) {
      await expectFlagged(at, file(noSql, timer), INTERVAL);
    }
    expect(await lint('server/platform/background/jobs.ts', file(noSql, timer))).toEqual([]);
  });

  it('lets the named places do what they are for', async () => {
    expect(await lint('server/modules/example/repository.ts', file(query, rawSql))).toEqual([]);
    expect(await lint('server/modules/example/repository/part.ts', file(query, rawSql))).toEqual([]);
    expect(await lint('server/db/example.ts', file(query, rawSql, transaction))).toEqual([]);
    expect(await lint('server/platform/writes/command.ts', file(noSql, transaction))).toEqual([]);
    expect(await lint('server/platform/writes/audit.ts', file(query, rawSql, transaction))).toEqual([]);
    expect(await lint('server/modules/operations/events/routes.ts', file(noSql, timeout))).toEqual([]);
    expect(await lint('server/modules/example/service.ts', file(noSql, timeout))).toEqual([]);
  });
});

describe('modules meet at their faces (palayan/module-face)', () => {
  it("refuses an import of another module's file, from a module, the app and the command line", async () => {
    const other = "import { photosRepository } from '../../content/photos/repository/life.js';\nexport const x = photosRepository;\n";
    await expectFlagged('server/modules/content/catalog/service.ts', other, FACE);
    await expectFlagged('server/modules/content/catalog/nested/part.ts', other.replace('../../content', '../../../content'), FACE);
    await expectFlagged(
      'server/app.ts',
      "import { photosRepository } from './modules/content/photos/repository/life.js';\nexport const x = photosRepository;\n",
      FACE,
    );
    await expectFlagged(
      'server/modules/index.ts',
      "import { photoReads } from './content/photos/repository/reads.js';\nexport const x = photoReads;\n",
      FACE,
    );
  });

  it('lets a module import its own files, another module through its face, and the registries list the entries', async () => {
    expect(
      await lint(
        'server/modules/content/catalog/service.ts',
        "import { photoReads } from '../photos/index.js';\nimport { x } from './presenter.js';\nexport const y = [photoReads, x];\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'server/modules/content/photos/library.ts',
        "import { photosRepository } from './repository/life.js';\nexport const x = photosRepository;\n",
      ),
    ).toEqual([]);
    expect(await lint('server/modules/index.ts', "import routes from './content/photos/routes.js';\nexport const x = routes;\n")).toEqual(
      [],
    );
    expect(
      await lint(
        'server/modules/collections.ts',
        "import { c } from './content/catalog/collection.js';\nimport r from './content/dataset/reviewed.js';\nexport const x = [c, r];\n",
      ),
    ).toEqual([]);
  });
});

describe('one home for photos (palayan/photo-table)', () => {
  const PHOTO_TABLE = 'Only server/modules/content/photos/ names the photo table';
  const named = `import type { Kysely } from 'kysely';
import type { Database } from '../../../../db/types.js';
export const count = (db: Kysely<Database>, id: string) => db.selectFrom('catalog_images').select('id').where('entryId', '=', id).execute();
export const raw = \`select * from catalog_images\`;
`;

  it("refuses the photo table's name outside the photos module, in a repository too", async () => {
    const messages = await lint('server/modules/example/repository.ts', named);
    expect(messages.filter((m) => m.includes(PHOTO_TABLE))).toHaveLength(2);
    await expectFlagged('server/modules/content/catalog/service.ts', "export const table = 'catalog_images';\n", PHOTO_TABLE);
  });

  it('lets the photos module and the migrations name it', async () => {
    expect(await lint('server/modules/content/photos/repository/life.ts', named)).toEqual([]);
    expect(
      (await lint('server/db/migrations/999_example.ts', "export const table = 'catalog_images';\n")).filter((m) =>
        m.includes(PHOTO_TABLE),
      ),
    ).toEqual([]);
  });
});

describe('import bans (no-restricted-imports)', () => {
  it("refuses a module importing another module's routes", async () => {
    await expectFlagged(
      'server/modules/example/service.ts',
      "import routes from '../other/routes.js';\nexport default routes;\n",
      OTHER_ROUTES,
    );
  });

  it('refuses platform code importing a module', async () => {
    await expectFlagged(
      'server/platform/http/example.ts',
      "import { createThing } from '../../modules/other/service.js';\nexport { createThing };\n",
      PLATFORM_IMPORTS_MODULE,
    );
  });
});

it('passes a clean service: the write through runCommand, the query in its repository', async () => {
  const code = `import type { AppContext } from '../../platform/http/context.js';
import { runCommand } from '../../platform/writes/command.js';
import { exampleRepository as repo } from './repository.js';

export function createExampleService(ctx: AppContext) {
  return {
    rename: (id: string, name: string) => runCommand(ctx, null, (trx) => repo.rename(trx, id, name)),
  };
}
`;
  expect(await lint('server/modules/example/service.ts', code)).toEqual([]);
});
