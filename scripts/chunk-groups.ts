import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

/**
 * Chunks by first use, so each kind of visit fetches a few files of useful size instead of a
 * dozen of under 1 KB (single icons, small helpers), each a round trip on a slow link:
 *  - index: the entry (src/main.tsx) and what it imports: React, the router, the session, the
 *    login screen and its form;
 *  - shell: what the signed-in frame and the dashboard import beyond that (query cache, menus,
 *    icons, shared UI).
 * Everything else (each screen, what screens share) is split automatically. The module graph
 * is read at the end of the build's analysis, before chunks are made.
 */
const SHELL_ROOTS = ['src/app/shell/layout.tsx', 'src/features/dashboard/dashboard-page.tsx'];

export function chunkGroups(root: string): { plugin: Plugin; groups: Rolldown.CodeSplittingGroup[] } {
  const shell = new Set<string>();
  const plugin: Plugin = {
    name: 'palayan:chunk-groups',
    apply: 'build',
    buildEnd(error) {
      if (error) return;
      const stack = SHELL_ROOTS.map((start) => path.join(root, start));
      for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
        if (shell.has(id)) continue;
        const info = this.getModuleInfo(id);
        if (!info) return this.error(`chunk groups: ${path.relative(root, id)} is not in the build (was it moved?)`);
        shell.add(id);
        stack.push(...info.importedIds);
      }
    },
  };
  const groups: Rolldown.CodeSplittingGroup[] = [
    { name: 'index', tags: ['$initial'], priority: 20 },
    { name: 'shell', test: (id) => shell.has(id), priority: 10 },
  ];
  return { plugin, groups };
}
