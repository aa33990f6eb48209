/**
 * How many server source files one save of a disease with photos passes through.
 *
 * Builds the app as the API tests do (tests/fixtures/app.ts: SQLite in a temp DATA_DIR), signs
 * in as a SYSTEM_ADMIN, stages small sharp-made JPEGs (48x32) through POST /api/rice_diseases/images
 * and waits until the thumbnail queue is idle. Then, with V8 precise coverage (node:inspector,
 * call counts, block detail) started before the app was loaded:
 *   - create: reset the counts, POST /api/rice_diseases naming the staged photos (expects 201),
 *     read the counts. A new disease needs 800 photos (CATALOG_KINDS.disease.minImagesOnCreate;
 *     fewer is a 400 from validation, before any save), so that many are staged, not 3;
 *   - edit: stage one more photo, wait for the queue, reset the counts, PUT /api/rice_diseases/:id
 *     dropping the 2nd photo and adding the new one first, with the version (expects 200), read
 *     the counts.
 *   - restore: restore version 1 (it loads what restores need; not counted), reset the counts,
 *     restore version 2 (the edited one) through POST /api/rice_diseases/:id/versions/2/restore.
 * A file counts when at least one of its functions ran during the save (block coverage: the
 * function's ranges[0].count > 0); "+load" marks a file whose module body first ran in the
 * save (a lazy import). Work the save leaves running after its response (the next 500 ms) is
 * listed apart, not counted. Files under server/ are listed by folder, then the distinct
 * server/modules/<module> touched, then the common/ files.
 *
 * Runs on older commits too, for before/after counts: the thumbnail runtime is photoRuntime
 * (server/modules/content/photos/variants.ts) or, before the photos module, catalogRuntime
 * (server/modules/content/catalog/runtime.ts), whichever exists.
 *
 * Usage: npm run bench:save-path, or npx tsx bench/save-path.ts   (from the repository root; about 20 s, most of it staging the photos)
 */
import inspector from 'node:inspector';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface FunctionCoverage {
  functionName: string;
  ranges: { startOffset: number; endOffset: number; count: number }[];
}
interface ScriptCoverage {
  url: string;
  functions: FunctionCoverage[];
}

const session = new inspector.Session();
session.connect();
function post<T = unknown>(method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
}
await post('Profiler.enable');
await post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
async function takeCoverage(): Promise<ScriptCoverage[]> {
  return (await post<{ result: ScriptCoverage[] }>('Profiler.takePreciseCoverage')).result;
}

/** Files of the repository that ran during the window: relative path -> whether the module body ran. */
function touched(coverage: ScriptCoverage[]): Map<string, { load: boolean }> {
  const out = new Map<string, { load: boolean }>();
  for (const script of coverage) {
    if (!script.url.startsWith('file://')) continue;
    const file = path.relative(ROOT, fileURLToPath(script.url.replace(/[?#].*$/, '')));
    if (file.startsWith('..') || file.startsWith('node_modules')) continue;
    const ran = script.functions.filter((f) => (f.ranges[0]?.count ?? 0) > 0);
    if (ran.length === 0) continue;
    const load = ran.some((f) => f.functionName === '' && f.ranges[0]!.startOffset === 0);
    const prev = out.get(file);
    out.set(file, { load: (prev?.load ?? false) || load });
  }
  return out;
}

function moduleOf(file: string): string | null {
  const m = /^server\/modules\/([^/]+)\//.exec(file);
  return m ? m[1]! : null;
}

function report(title: string, files: Map<string, { load: boolean }>, after: Map<string, { load: boolean }>): void {
  const server = [...files.keys()].filter((f) => f.startsWith('server/')).sort();
  const common = [...files.keys()].filter((f) => f.startsWith('common/')).sort();
  const modules = [...new Set(server.map(moduleOf).filter((m): m is string => m !== null))].sort();
  const mark = (f: string) => (files.get(f)!.load ? ' +load' : '');
  console.log(`\n=== ${title} ===`);
  console.log(
    `server files: ${server.length}   server modules: ${modules.length} (${modules.join(', ')})   common files: ${common.length}`,
  );
  const byFolder = new Map<string, string[]>();
  for (const f of server) {
    const folder = path.dirname(f);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), path.basename(f) + mark(f)]);
  }
  for (const [folder, names] of byFolder) console.log(`  ${folder}/ (${names.length}): ${names.join(', ')}`);
  console.log(`  common/ (${common.length}): ${common.map((f) => f.slice('common/'.length) + mark(f)).join(', ')}`);
  const extra = [...after.keys()].filter((f) => (f.startsWith('server/') || f.startsWith('common/')) && !files.has(f)).sort();
  console.log(`  in the 500 ms after the response (not counted): ${extra.length ? extra.join(', ') : 'no other file'}`);
}

// Everything the app needs loads after the profiler started, so a reset sees every function.
const { createTestApp } = await import('../tests/fixtures/app.js');
const { loginAs, makeAccount } = await import('../tests/fixtures/factories.js');
const { entryBody, uploadPhoto } = await import('../tests/fixtures/catalog.js');
const { CATALOG_KINDS } = await import('../common/catalog.js');
const sharp = (await import('sharp')).default;

type Runtime = { queue: { idle(): Promise<void> }; flushEvents(): void };
async function loadRuntime(): Promise<(ctx: never) => Runtime> {
  try {
    return (await import('../server/modules/content/photos/variants.js' as string)).photoRuntime;
  } catch {
    return (await import('../server/modules/content/catalog/runtime.js' as string)).catalogRuntime;
  }
}
const runtimeOf = await loadRuntime();

const disease = CATALOG_KINDS.disease;
const t = await createTestApp();
try {
  await t.app.ready();
  const runtime = runtimeOf(t.ctx as never);
  const settle = async () => {
    await runtime.queue.idle();
    runtime.flushEvents();
  };
  /** What runs in the 500 ms after a response (work the save left behind), without waking anything. */
  const lingering = async () => {
    await new Promise((r) => setTimeout(r, 500));
    return takeCoverage();
  };
  const admin = await makeAccount(t.ctx, { role: 'SYSTEM_ADMIN', fullname: 'Bench Admin' });
  const cookie = await loginAs(t.app, admin);

  let shade = 0;
  async function stage(name: string): Promise<string> {
    // 48x32 pixels, its number written in 8x8 blocks (light = 1): every photo's bytes differ
    // (a save keeps one of two equal uploads).
    shade += 1;
    const pixels = Buffer.alloc(48 * 32 * 3);
    for (let y = 0; y < 32; y += 1) {
      for (let x = 0; x < 48; x += 1) {
        const bit = (shade >> (Math.floor(y / 8) * 6 + Math.floor(x / 8))) & 1;
        pixels.set(bit ? [220, 230, 120] : [30, 90, 40], (y * 48 + x) * 3);
      }
    }
    const jpeg = await sharp(pixels, { raw: { width: 48, height: 32, channels: 3 } })
      .jpeg({ quality: 80 })
      .toBuffer();
    const res = await uploadPhoto(t.app, cookie, disease, name, jpeg, 'image/jpeg');
    if (res.statusCode !== 201) throw new Error(`staging ${name}: ${res.statusCode} ${res.body}`);
    return res.json<{ id: string }>().id;
  }

  // 3 photos, or as many as a new disease needs (minImagesOnCreate, 800): fewer is a 400 before any save.
  const photos = Math.max(3, disease.minImagesOnCreate);
  const staged: string[] = [];
  for (let i = 0; i < photos; i += 1) staged.push(await stage(`leaf_${i + 1}.jpg`));
  await settle();

  await takeCoverage();
  const created = await t.app.inject({
    method: 'POST',
    url: `/api/${disease.route}`,
    headers: { cookie },
    payload: entryBody('Bench blast', staged),
  });
  const createCov = await takeCoverage();
  if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
  const createAfter = await lingering();
  await settle();
  const entry = created.json<{ id: string; version: number; images: { id: string }[] }>();

  const fresh = await stage(`leaf_${photos + 1}.jpg`);
  await settle();
  const kept = entry.images.map((i) => i.id).filter((_, i) => i !== 1);
  await takeCoverage();
  const edited = await t.app.inject({
    method: 'PUT',
    url: `/api/${disease.route}/${entry.id}`,
    headers: { cookie },
    payload: { ...entryBody('Bench blast', [fresh, ...kept]), version: entry.version },
  });
  const editCov = await takeCoverage();
  if (edited.statusCode !== 200) throw new Error(`edit: ${edited.statusCode} ${edited.body}`);
  const editAfter = await lingering();
  const ids = edited.json<{ images: { id: string }[] }>().images.map((i) => i.id);
  if (ids.join() !== [fresh, ...kept].join()) throw new Error(`edit kept ${ids.join()}`);

  // A version restore: the first one loads the versioned collections' adapters (not counted);
  // the second, back to the edited version, is measured.
  const versionsUrl = `/api/${disease.route}/${entry.id}/versions`;
  const restore = (number: number, version: number) =>
    t.app.inject({ method: 'POST', url: `${versionsUrl}/${number}/restore`, headers: { cookie }, payload: { version, replacements: {} } });
  const warm = await restore(1, entry.version + 1);
  if (warm.statusCode !== 200) throw new Error(`restore 1: ${warm.statusCode} ${warm.body}`);
  await settle();
  await takeCoverage();
  const restored = await restore(2, entry.version + 2);
  const restoreCov = await takeCoverage();
  if (restored.statusCode !== 200) throw new Error(`restore 2: ${restored.statusCode} ${restored.body}`);
  const restoreAfter = await lingering();

  const createFiles = touched(createCov);
  const restoreFiles = touched(restoreCov);
  const editFiles = touched(editCov);
  console.log(`save path of a disease with photos, ${path.basename(ROOT)} (${ROOT})`);
  report(`CREATE  POST /api/${disease.route} with ${photos} staged photos -> ${created.statusCode}`, createFiles, touched(createAfter));
  report(
    `EDIT  PUT /api/${disease.route}/:id drop 1 photo, add 1 staged, version ${entry.version} -> ${edited.statusCode}`,
    editFiles,
    touched(editAfter),
  );
  report(
    `RESTORE  POST ${versionsUrl.replace(entry.id, ':id')}/2/restore (the edited version, after a restore of version 1) -> ${restored.statusCode}`,
    restoreFiles,
    touched(restoreAfter),
  );
  const count = (m: Map<string, unknown>, p: string) => [...m.keys()].filter((f) => f.startsWith(p)).length;
  const mods = (m: Map<string, unknown>) => new Set([...m.keys()].map(moduleOf).filter(Boolean)).size;
  console.log(
    `\nSUMMARY create: ${count(createFiles, 'server/')} server files, ${mods(createFiles)} modules, ${count(createFiles, 'common/')} common files | edit: ${count(editFiles, 'server/')} server files, ${mods(editFiles)} modules, ${count(editFiles, 'common/')} common files | restore: ${count(restoreFiles, 'server/')} server files, ${mods(restoreFiles)} modules`,
  );
} finally {
  await post('Profiler.stopPreciseCoverage');
  session.disconnect();
  await t.close();
}
