import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The e2e servers run the built server (as `npm start` does); build it once, and start from empty data folders. */
export default function globalSetup(): void {
  const root = path.resolve(import.meta.dirname, '..', '..');
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
  fs.rmSync(path.join(root, '.tmp', 'e2e-data'), { recursive: true, force: true });
}
