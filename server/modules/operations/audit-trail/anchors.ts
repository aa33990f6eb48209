import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AnchorCheck } from './verify.js';

/**
 * Anchors: the chain's head (position, hash, live entry count, time) written once a day and on
 * demand to DATA_DIR/audit-anchors and, with SMTP, emailed to the super admins. Rewriting the
 * whole chain with fresh hashes is detectable against any anchor held outside the database.
 */
export interface Anchor {
  index: number;
  hash: string;
  count: number;
  at: string;
  instance: string;
}

export function anchorDir(dataDir: string): string {
  return path.join(dataDir, 'audit-anchors');
}

export async function writeAnchorFile(dataDir: string, anchor: Anchor): Promise<string> {
  const dir = anchorDir(dataDir);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const name = `anchor-${anchor.at.replace(/[-:]/g, '')}-${anchor.index}.json`;
  await fsp.writeFile(path.join(dir, name), `${JSON.stringify(anchor, null, 2)}\n`, { mode: 0o600 });
  return name;
}

/** Reads an anchor from a file holding its JSON (an anchor file, or an anchor email's text). */
export function parseAnchor(text: string, file: string): AnchorCheck | null {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  try {
    const value = JSON.parse(text.slice(start, end + 1)) as Partial<Anchor>;
    if (!Number.isInteger(value.index) || typeof value.hash !== 'string' || !/^[0-9a-f]{64}$/.test(value.hash)) return null;
    return { index: value.index!, hash: value.hash, file };
  } catch {
    return null;
  }
}

export async function readAnchorFile(file: string): Promise<AnchorCheck | null> {
  return parseAnchor(await fsp.readFile(file, 'utf8'), path.basename(file));
}

/** Every anchor in DATA_DIR/audit-anchors, oldest first, with the newest one's content. */
export async function readAnchors(dataDir: string): Promise<{ checks: AnchorCheck[]; newest: (Anchor & { file: string }) | null }> {
  let names: string[];
  try {
    names = (await fsp.readdir(anchorDir(dataDir))).filter((n) => /^anchor-.+\.json$/.test(n)).sort();
  } catch {
    return { checks: [], newest: null };
  }
  const checks: AnchorCheck[] = [];
  let newest: (Anchor & { file: string }) | null = null;
  for (const name of names) {
    const text = await fsp.readFile(path.join(anchorDir(dataDir), name), 'utf8').catch(() => '');
    const check = parseAnchor(text, name);
    if (!check) continue;
    checks.push(check);
    try {
      const value = JSON.parse(text) as Anchor;
      if (!newest || value.at >= newest.at) newest = { ...value, file: name };
    } catch {
      /* parseAnchor accepted it; its text is not plain JSON */
    }
  }
  return { checks, newest };
}
