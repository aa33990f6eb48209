#!/usr/bin/env node
// No import cycles between server modules: every import (type-only and dynamic ones included)
// from one module (server/modules/<kind>/<module>/) into another is an edge, and the graph of modules must have
// no cycle. Prints the edges of each cycle found and exits 1; `--list` prints every edge.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modulesDir = join(root, 'server', 'modules');
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.ts$/.test(name)) yield path;
  }
}

/** server/modules/<kind>/<module>/…: the module is the folder below its kind's (identity, content, …). */
const moduleOf = (path) => {
  const rel = relative(modulesDir, path);
  const parts = rel.split(sep);
  return rel.startsWith('..') || parts.length < 3 ? null : `${parts[0]}/${parts[1]}`;
};

/** module → module it imports → the importing files */
export function moduleGraph() {
  const graph = new Map();
  for (const file of files(modulesDir)) {
    const from = moduleOf(file);
    if (!from) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? match[3];
      if (!spec.startsWith('.')) continue;
      const to = moduleOf(resolve(dirname(file), spec));
      if (!to || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      const edges = graph.get(from);
      if (!edges.has(to)) edges.set(to, []);
      edges.get(to).push(relative(root, file));
    }
  }
  return graph;
}

/** Strongly connected components of more than one module (Tarjan). */
export function cycles(graph) {
  let index = 0;
  const indices = new Map(),
    low = new Map(),
    stack = [],
    onStack = new Set(),
    found = [];
  const visit = (v) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indices.get(w)));
    }
    if (low.get(v) === indices.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const graph = moduleGraph();
  if (process.argv.includes('--list')) {
    for (const [from, edges] of [...graph].sort()) for (const to of [...edges.keys()].sort()) console.log(`${from} → ${to}`);
  }
  const twoWay = [];
  for (const [from, edges] of graph)
    for (const to of edges.keys()) if (from < to && graph.get(to)?.has(from)) twoWay.push(`${from} ↔ ${to}`);
  const found = cycles(graph);
  if (found.length === 0) {
    console.log(`No import cycles between the ${new Set([...graph.keys()]).size} importing server modules.`);
    process.exit(0);
  }
  console.log(`Import cycles between server modules: ${found.length} (two-way pairs: ${twoWay.length})`);
  for (const pair of twoWay) console.log(`  ${pair}`);
  for (const component of found) {
    console.log(`\n  cycle through ${component.join(', ')}:`);
    for (const from of component)
      for (const [to, by] of graph.get(from) ?? [])
        if (component.includes(to)) console.log(`    ${from} → ${to}: ${[...new Set(by)].join(', ')}`);
  }
  process.exit(1);
}
