import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ReviewAction, ReviewCollection } from '../../../common/review.js';
import type { ReviewedAction, ReviewedPart } from '../../platform/writes/review-gate.js';

export interface ReviewedCollection {
  actions: Partial<Record<ReviewAction, ReviewedAction>>;
  preview?: ReviewedPart['preview'];
}

let loading: Promise<Map<ReviewCollection, ReviewedCollection>> | null = null;

/** Every module's reviewed.ts (default export: its parts), merged by collection; no module imports review. */
async function load(): Promise<Map<ReviewCollection, ReviewedCollection>> {
  const modules = path.resolve(import.meta.dirname, '..');
  const found = new Map<ReviewCollection, ReviewedCollection>();
  for (const area of fs.readdirSync(modules, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
    const file = ['reviewed.ts', 'reviewed.js'].map((f) => path.join(modules, area, f)).find((f) => fs.existsSync(f));
    if (!file) continue;
    const mod = (await import(/* @vite-ignore */ pathToFileURL(file).href)) as { default: ReviewedPart[] };
    for (const part of mod.default) {
      const entry = found.get(part.collection) ?? { actions: {} };
      for (const [action, adapter] of Object.entries(part.actions ?? {}) as Array<[ReviewAction, ReviewedAction]>) {
        if (entry.actions[action]) throw new Error(`Two modules review ${action} of ${part.collection}`);
        entry.actions[action] = adapter;
      }
      if (part.preview) {
        if (entry.preview) throw new Error(`Two modules preview ${part.collection}`);
        entry.preview = part.preview;
      }
      found.set(part.collection, entry);
    }
  }
  return found;
}

export function reviewedCollections(): Promise<Map<ReviewCollection, ReviewedCollection>> {
  loading ??= load().catch((err: unknown) => { loading = null; throw err; });
  return loading;
}

export async function reviewedAction(collection: ReviewCollection, action: ReviewAction): Promise<ReviewedAction> {
  const adapter = (await reviewedCollections()).get(collection)?.actions[action];
  if (!adapter) throw new Error(`No module reviews ${action} of ${collection}: it needs a reviewed.ts`);
  return adapter;
}
