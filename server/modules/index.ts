import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';

/**
 * Every feature module lives in server/modules/<area>/ and exposes its HTTP routes as the
 * default export of routes.ts. buildApp registers all of them, in folder-name order.
 */
export async function loadModules(): Promise<FastifyPluginAsync[]> {
  const dir = import.meta.dirname;
  const areas = fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const modules: FastifyPluginAsync[] = [];
  for (const area of areas) {
    const file = ['routes.ts', 'routes.js'].map((f) => path.join(dir, area, f)).find((f) => fs.existsSync(f));
    if (!file) continue;
    const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { default: FastifyPluginAsync };
    if (typeof mod.default !== 'function') throw new Error(`server/modules/${area}/routes.ts has no default export`);
    modules.push(mod.default);
  }
  return modules;
}
