// Takes screenshots of the main screens of a running console, for a person to look at.
// Usage: node scripts/screenshots.mjs [baseURL] [username] [password] [outDir]
import { chromium } from '@playwright/test';
import fs from 'node:fs';

const [base = 'http://127.0.0.1:3000', username, password, out = '.tmp/screens'] = process.argv.slice(2);
const paths = (process.env.SCREENS || '/dashboard').split(',');
fs.mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await browser.newPage({ viewport: { width: Number(process.env.WIDTH || 1366), height: Number(process.env.HEIGHT || 860) } });
await page.goto(`${base}/login`);
await page.waitForTimeout(500);
await page.screenshot({ path: `${out}/login.png` });
if (username) {
  await page.getByLabel('Username or email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await page.waitForURL(/dashboard/, { timeout: 15000 });
  for (const p of paths) {
    await page.goto(`${base}${p}`);
    await page.waitForTimeout(Number(process.env.WAIT || 1200));
    await page.screenshot({ path: `${out}/${p.replace(/\W+/g, '_') || 'root'}.png`, fullPage: true });
  }
}
await browser.close();
console.log(`screenshots in ${out}`);
