// The end-to-end tests drive the system Chromium (Debian package `chromium`). Finds it,
// installs it where this machine allows (root with apt-get), or fails with the exact command.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const INSTALL = 'apt-get update && apt-get install -y chromium';

if (!fs.existsSync(CHROMIUM)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let hasApt = false;
  try {
    execSync('command -v apt-get', { stdio: 'ignore' });
    hasApt = true;
  } catch {
    /* no apt */
  }
  if (isRoot && hasApt) {
    console.log(`Chromium not found at ${CHROMIUM}; installing it with: ${INSTALL}`);
    execSync(INSTALL, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  if (!fs.existsSync(CHROMIUM)) {
    console.error(
      `Chromium is needed for the end-to-end tests and was not found at ${CHROMIUM}.\nInstall it with:\n  sudo ${INSTALL}\n(or set CHROMIUM_PATH to a Chromium binary).`,
    );
    process.exit(1);
  }
}
