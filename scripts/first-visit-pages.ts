import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import { FIRST_VISIT_PAGES } from '../common/first-visit.js';

/**
 * Writes the signed-in first-visit pages of common/first-visit.ts beside index.html: the same
 * page, plus a modulepreload for each chunk the screen needs beyond what the entry imports, and
 * a fetch preload for each endpoint the screen asks first.
 */
export function firstVisitPages(root: string): Plugin {
  return {
    name: 'palayan:first-visit-pages',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (!index || index.type !== 'asset') return this.error('index.html is not in the bundle');
      const chunks = new Map(
        Object.values(bundle)
          .filter((c): c is Rolldown.OutputChunk => c.type === 'chunk')
          .map((c) => [c.fileName, c]),
      );
      const withImports = (files: string[]): Set<string> => {
        const seen = new Set<string>();
        const visit = (file: string) => {
          if (seen.has(file)) return;
          seen.add(file);
          for (const dep of chunks.get(file)?.imports ?? []) visit(dep);
        };
        files.forEach(visit);
        return seen;
      };
      // What the page already names (the entry's scripts, its style sheet) and what they import.
      const original = String(index.source);
      const named = [...original.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((m) => m[1]!);
      const loaded = new Set([...named, ...withImports(named.filter((file) => chunks.has(file)))]);
      for (const page of FIRST_VISIT_PAGES) {
        // The chunk that holds each module, and the small one that stands for it when it is
        // imported lazily (it re-exports from the first).
        const roots = page.modules.flatMap((module) => {
          const id = path.join(root, module);
          const found = [...chunks.values()].filter((c) => c.moduleIds.includes(id) || c.facadeModuleId === id).map((c) => c.fileName);
          if (found.length === 0) return this.error(`${page.file}: no chunk holds ${module}`);
          return found;
        });
        const files = [...withImports(roots)].filter((file) => !loaded.has(file));
        const styles = files
          .flatMap((file) => [...(chunks.get(file)?.viteMetadata?.importedCss ?? [])])
          .filter((file) => !loaded.has(file));
        const tags = [
          ...styles.map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
          ...files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
          ...page.data.map((url) => `<link rel="preload" as="fetch" crossorigin href="${url}">`),
        ];
        const html = original.replace('</head>', `  ${tags.join('\n    ')}\n  </head>`);
        this.emitFile({ type: 'asset', fileName: page.file, source: html });
      }
    },
  };
}
