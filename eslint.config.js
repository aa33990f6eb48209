// ESLint 10 flat config: typescript-eslint and react-hooks, plus the code map's rules
// (docs/ARCHITECTURE.md, "Rules the linter keeps").
import { createRequire } from 'node:module';
import Module from 'node:module';
import path from 'node:path';

// typescript-eslint parses with TypeScript's JavaScript API, which TypeScript 7 (the project's
// compiler, a native binary) does not have. TypeScript 6's API is installed for it alone, nested
// in tools/eslint-typescript so its `tsc` never shadows the project's; its requests for
// 'typescript' are pointed there before it loads.
const require = createRequire(import.meta.url);
const typescript6 = require('eslint-typescript');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  if (
    request === 'typescript' &&
    parent?.filename &&
    /[\\/]node_modules[\\/](@typescript-eslint|typescript-eslint|ts-api-utils)[\\/]/.test(parent.filename)
  ) {
    return typescript6;
  }
  return resolve.call(this, request, parent, ...rest);
};

const { default: js } = await import('@eslint/js');
const { default: tseslint } = await import('typescript-eslint');
const { default: reactHooks } = await import('eslint-plugin-react-hooks');

const QUERY_METHODS = 'selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto';

/**
 * The server's `no-restricted-syntax` bans, each defined once. ESLint keeps ONE list of this rule
 * per file: a later block's list for the same file replaces an earlier one's, it does not add to
 * it. So no block below names a selector itself: each gives its files one whole list, made by
 * `syntaxBans` from these names (tests/unit/lint-rules.test.ts tries every one).
 */
const SYNTAX_BANS = {
  query: [
    {
      selector: `CallExpression[callee.property.name=/^(${QUERY_METHODS})$/]`,
      message: 'Queries live in a repository.ts (typed from server/db/types.ts); call it from the service.',
    },
  ],
  transaction: [
    {
      selector: 'CallExpression[callee.property.name="transaction"]',
      message:
        'Writes go through runCommand (server/platform/writes/command.ts): it holds the transaction, the audit entry and the events after commit.',
    },
  ],
  rawSql: [
    {
      selector: 'TaggedTemplateExpression[tag.name="sql"]',
      message: 'Raw SQL (sql`...`) lives in a repository (repository.ts or a repository/ folder) or server/db/.',
    },
    {
      selector: 'CallExpression[callee.object.name="sql"]',
      message:
        'Raw SQL (sql.raw, sql.ref, sql.join, sql.lit...) lives in a repository (repository.ts or a repository/ folder) or server/db/.',
    },
  ],
  computedImport: [
    {
      selector: 'ImportExpression:not([source.type="Literal"])',
      message:
        'Import a module by its name (routes and adapters are listed in server/modules/index.ts), never by a path worked out at run time: the compiler, the cycle check and knip cannot follow one.',
    },
  ],
  timer: [
    {
      selector: 'CallExpression[callee.name=/^set(Interval|Timeout)$/]',
      message: 'Schedule background work with scheduleJob (server/platform/background/jobs.ts), not a timer in a routes file.',
    },
  ],
  interval: [
    {
      selector: 'CallExpression[callee.name="setInterval"]',
      message: 'Repeat work with every() or scheduleJob (server/platform/background/jobs.ts), the one repeating timer.',
    },
  ],
};
/** What every server file keeps unless a block below names it exempt. */
const SERVER_BANS = ['query', 'transaction', 'rawSql', 'computedImport', 'interval'];
/** One whole `no-restricted-syntax` setting from ban names ('off' when none is left). */
const syntaxBans = (names) => (names.length === 0 ? 'off' : ['error', ...names.flatMap((name) => SYNTAX_BANS[name])]);
/** Every server ban but the named ones. */
const serverBansExcept = (...exempt) => syntaxBans(SERVER_BANS.filter((name) => !exempt.includes(name)));

/**
 * The photo table is named only by the photos module (server/modules/content/photos/) and migrations:
 * every other module reads and moves photos through that module's calls. A rule of its own, so
 * it adds to the syntax bans above instead of replacing them.
 */
const PHOTO_TABLE = /\bcatalog_images\b/;
/**
 * server/modules/<kind>/<module>/: a file outside a module reaches it only through its face,
 * the module's index.ts. The registries in server/modules/ (index.ts, collections.ts) list a
 * module's entries themselves: its routes (routes.ts, *-routes.ts), its collection definition
 * (collection.ts) and its reviewed saves (reviewed.ts).
 */
const MODULE_FILE = /^server\/modules\/([^/]+\/[^/]+)\/(.+)$/;
const REGISTRY = /^server\/modules\/[^/]+\.ts$/;
const REGISTRY_ENTRY = /^(.+-)?routes\.ts$|^collection\.ts$|^reviewed\.ts$/;
function faceProblem(filename, source) {
  if (!source.startsWith('.')) return null;
  const from = path
    .relative(import.meta.dirname, filename)
    .split(path.sep)
    .join('/');
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(from), source)).replace(/\.js$/, '.ts');
  const into = MODULE_FILE.exec(target);
  if (!into || from.startsWith(`server/modules/${into[1]}/`)) return null;
  if (into[2] === 'index.ts' || into[2] === 'index') return null;
  if (REGISTRY.test(from) && REGISTRY_ENTRY.test(into[2])) return null;
  return into[1];
}
const projectRules = {
  rules: {
    'module-face': {
      meta: {
        type: 'problem',
        messages: { face: 'Import another module through its face: server/modules/{{module}}/index.ts (add what you need to it).' },
      },
      create: (context) => {
        const check = (node) => {
          if (!node.source || typeof node.source.value !== 'string') return;
          const module = faceProblem(context.filename, node.source.value);
          if (module) context.report({ node: node.source, messageId: 'face', data: { module } });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
      },
    },
    'photo-table': {
      meta: {
        type: 'problem',
        messages: {
          named:
            'Only server/modules/content/photos/ names the photo table (catalog_images): call the photos module (its repository reads, entry-photos or library) instead.',
        },
      },
      create: (context) => ({
        Literal(node) {
          if (typeof node.value === 'string' && PHOTO_TABLE.test(node.value)) context.report({ node, messageId: 'named' });
        },
        TemplateElement(node) {
          if (PHOTO_TABLE.test(node.value.raw)) context.report({ node, messageId: 'named' });
        },
      }),
    },
  },
};

/** `no-restricted-imports` patterns by regular expression, each with its reason. */
const banImports = (...rules) => ['error', { patterns: rules.map(([regex, message]) => ({ regex, message })) }];

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', '.tmp/**', 'node_modules/**', 'tools/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      // TypeScript checks names (tsc runs in CI); ESLint's own check knows no DOM or Node globals.
      'no-undef': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // A file holds one job: past 400 formatted lines it is split by job (tests and migrations
  // excepted: a test file is a list of cases, a migration the schema as it was).
  {
    files: ['server/**/*.ts', 'src/**/*.{ts,tsx}', 'common/**/*.ts', 'scripts/**/*.mjs', 'bench/**/*.ts'],
    ignores: ['server/db/migrations/**'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  // Migrations see the schema as it was then, not today's Database interface (Kysely's advice).
  { files: ['server/db/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  // Tests read JSON bodies loosely; what they assert is the check.
  { files: ['tests/**/*.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },

  // The browser app: a feature imports only its own files and shared code (src/components,
  // src/lib, common/); shared code imports no feature.
  {
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': banImports(
        ['^\\.\\./[^.]', 'No imports across features: move shared code to src/components/ui, src/lib or common/.'],
        ['(^|/)features/', 'No imports across features: move shared code to src/components/ui, src/lib or common/.'],
        ['(^|/)server/', 'The browser app never imports the server.'],
      ),
    },
  },
  {
    files: ['src/components/**/*.{ts,tsx}', 'src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': banImports(
        ['(^|/)features/', 'Shared code imports no feature.'],
        ['(^|/)server/', 'The browser app never imports the server.'],
      ),
    },
  },
  // The router and entry may import features, never the server.
  {
    files: ['src/app/**/*.{ts,tsx}', 'src/main.tsx'],
    rules: {
      'no-restricted-imports': banImports(['(^|/)server/', 'The browser app never imports the server.']),
    },
  },
  {
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': banImports(['(^|/)(server|src)/', 'common/ is imported by both sides and imports neither.']),
    },
  },
  // The schemas take z from common/schemas/zod.ts, which keeps the browser within its CSP.
  {
    files: ['common/schemas/**/*.ts'],
    ignores: ['common/schemas/zod.ts'],
    rules: {
      'no-restricted-imports': banImports(
        ['(^|/)(server|src)/', 'common/ is imported by both sides and imports neither.'],
        ['^zod$', "Import z from './zod.js': in the browser it runs without eval (the console's CSP forbids it)."],
      ),
    },
  },

  // The server's syntax bans (SYNTAX_BANS above), from the widest file group to the narrowest:
  // for a file in several groups the last one's list is the one it gets, so every list is whole.
  // Every server file: queries only in repositories (typed from server/db/types.ts); every write
  // in runCommand's transaction (server/platform/writes/command.ts); raw SQL only in repositories.
  { files: ['server/**/*.ts'], rules: { 'no-restricted-syntax': syntaxBans(SERVER_BANS) } },
  // Route files are HTTP only: background work is scheduled with platform/background/jobs.ts. The
  // live stream's per-connection timers are the exception (events/routes.ts).
  {
    files: ['server/modules/**/routes.ts', 'server/modules/**/*-routes.ts'],
    ignores: ['server/modules/operations/events/routes.ts'],
    rules: { 'no-restricted-syntax': syntaxBans([...SERVER_BANS, 'timer']) },
  },
  // Repositories hold the queries and the raw SQL; they write in the transaction they are given.
  {
    files: ['server/**/repository.ts', 'server/**/repository/*.ts'],
    rules: { 'no-restricted-syntax': serverBansExcept('query', 'rawSql') },
  },
  // The platform's own tables, each file its own repository: sessions, throttle counters,
  // signing keys, period slots; and the lease, one UPDATE on the table its work items name.
  {
    files: [
      'server/platform/identity/sessions.ts',
      'server/platform/identity/throttle.ts',
      'server/platform/identity/signing-keys.ts',
      'server/platform/background/lease.ts',
      'server/platform/background/period-slot.ts',
    ],
    rules: { 'no-restricted-syntax': serverBansExcept('query', 'rawSql') },
  },
  // The audit chain's store, and its sealer: sealAuditChain chains committed entries in a
  // transaction of its own (a lock on the chain's head, no audit entry of its own); runCommand
  // itself writes through this file, so it cannot be the sealer's way in.
  {
    files: ['server/platform/writes/audit.ts'],
    rules: { 'no-restricted-syntax': serverBansExcept('query', 'rawSql', 'transaction') },
  },
  // runCommand: the one place a write's transaction is opened.
  { files: ['server/platform/writes/command.ts'], rules: { 'no-restricted-syntax': serverBansExcept('transaction') } },
  // The database itself: connection, dialect helpers (inSnapshot: a read in one snapshot), bulk
  // loads, the search index's upkeep, migrations (the schema as it was then).
  { files: ['server/db/**/*.ts'], rules: { 'no-restricted-syntax': serverBansExcept('query', 'transaction', 'rawSql', 'computedImport') } },
  // The command line's verbs (server/cli.ts), each loaded when it is asked for.
  { files: ['server/cli.ts'], rules: { 'no-restricted-syntax': serverBansExcept('computedImport') } },
  // The one repeating timer.
  { files: ['server/platform/background/jobs.ts'], rules: { 'no-restricted-syntax': serverBansExcept('interval') } },
  // One home for photos: only its module and the migrations name the photo table.
  {
    files: ['server/**/*.ts'],
    ignores: ['server/modules/content/photos/**', 'server/db/migrations/**'],
    plugins: { palayan: projectRules },
    rules: { 'palayan/photo-table': 'error' },
  },
  // A module is reached through its face (index.ts); see MODULE_FILE above.
  {
    files: ['server/**/*.ts'],
    plugins: { palayan: projectRules },
    rules: { 'palayan/module-face': 'error' },
  },
  // Platform code is shared by every module and imports none.
  {
    files: ['server/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': banImports([
        '(^|/)modules/',
        'Platform code never imports a module: move the shared part into platform/ or common/.',
      ]),
    },
  },
  // A module never imports another module's HTTP layer.
  {
    files: ['server/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': banImports(
        [
          '^\\.\\./[^/]+/routes(\\.js)?$',
          "A module never imports another module's routes: move the shared part into its service, a presenter or platform/.",
        ],
        ['(^|/)src/', 'The server never imports the browser app.'],
      ),
    },
  },
);
