import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type LiteRt = typeof import('@litertjs/core');

interface LoaderGlobals {
  self?: unknown;
  importScripts?: (url: string) => void;
  ModuleFactory?: unknown;
  Module?: unknown;
}

let loading: Promise<LiteRt> | null = null;

/**
 * LiteRT's own log lines: its progress notes ("INFO: [environment.cc:36] …") and the warning
 * that Node has no NPU to offer are left out; anything else is a warning worth seeing.
 */
const liteRtLog = (line: string): void => {
  if (/^(INFO|VERBOSE|DEBUG):/.test(line) || /NPU accelerator could not be loaded/.test(line)) return;
  console.warn(`LiteRT: ${line}`);
};

async function load(): Promise<LiteRt> {
  const require = createRequire(import.meta.url);
  const wasmDir = path.join(path.dirname(path.dirname(require.resolve('@litertjs/core'))), 'wasm');
  const g = globalThis as LoaderGlobals;
  // LiteRT.js loads its WebAssembly glue with importScripts when there is one (as in a Web
  // Worker), else with a <script> tag. Node has neither: this importScripts runs the glue as
  // a CommonJS module and hands its factory over, as the script would have.
  const hadSelf = 'self' in globalThis;
  g.self ??= globalThis;
  g.importScripts = (url: string) => {
    const file = url.startsWith('file:') ? fileURLToPath(url) : url;
    const mod = { exports: {} as unknown };
    const run = new Function('module', 'exports', 'require', '__filename', '__dirname', fs.readFileSync(file, 'utf8'));
    run(mod, mod.exports, require, file, path.dirname(file));
    g.ModuleFactory = mod.exports;
  };
  // Read by the glue as the Emscripten module's settings: its log lines come here.
  g.Module = { print: liteRtLog, printErr: liteRtLog };
  // Without a GPU, loading warns that it found no WebGPU device: the CPU (wasm) is what is used.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!(typeof args[0] === 'string' && args[0].startsWith('Failed to create default WebGPU device'))) warn(...args);
  };
  try {
    const liteRt = await import('@litertjs/core');
    // Loaded already by other code in this process: LiteRT.js allows one load.
    await (liteRt.getGlobalLiteRtPromise() ?? liteRt.loadLiteRt(`${wasmDir}${path.sep}`));
    return liteRt;
  } finally {
    console.warn = warn;
    delete g.importScripts;
    delete g.Module;
    delete g.ModuleFactory;
    if (!hadSelf) delete g.self;
  }
}

/**
 * LiteRT.js (the TFLite runtime for JavaScript) ready to run models on the CPU in Node:
 * `loadAndCompile(bytes, { accelerator: 'wasm' })`, then `model.run([new Tensor(…)])`.
 * Loaded once; later calls get the same module.
 */
export function loadLiteRtRuntime(): Promise<LiteRt> {
  loading ??= load().catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}
