import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { chunkGroups } from './scripts/chunk-groups.js';
import { firstVisitPages } from './scripts/first-visit-pages.js';

// `npm run build:report` sets BUNDLE_REPORT: the visualiser writes what each chunk holds.
async function reportPlugins(): Promise<PluginOption[]> {
  if (!process.env.BUNDLE_REPORT) return [];
  const { visualizer } = await import('rollup-plugin-visualizer');
  const out = process.env.BUNDLE_REPORT;
  return [
    visualizer({ filename: `${out}/bundle-report.html`, template: 'treemap', gzipSize: true, brotliSize: true }) as PluginOption,
    visualizer({ filename: `${out}/bundle-report.json`, template: 'raw-data', gzipSize: true, brotliSize: true }) as PluginOption,
  ];
}

const chunks = chunkGroups(import.meta.dirname);

export default defineConfig(async () => ({
  plugins: [react(), tailwindcss(), chunks.plugin, firstVisitPages(import.meta.dirname), ...(await reportPlugins())],
  // The photo worker (and libheif in it, loaded when a HEIC photo is picked) is its own file.
  // The browsers staff use all support modulepreload; no polyfill in the login bundle.
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { codeSplitting: { groups: chunks.groups } } },
  },
  // ES module workers may split: libheif loads only when a HEIC photo is picked.
  worker: { format: 'es' as const },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
}));
