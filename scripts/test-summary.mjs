// Prints one closing line for the whole suite from the runners' JSON reports:
// "Tests: N passed, N failed" (vitest and Playwright together).
import fs from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);

const vitest = read('.tmp/reports/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + (vitest.numTodoTests ?? 0);
}
const pw = read(`.tmp/reports/playwright-${process.env.E2E_PORT_BASE || 3100}.json`);
if (pw) {
  passed += pw.stats.expected;
  failed += pw.stats.unexpected + (pw.stats.flaky ?? 0);
  skipped += pw.stats.skipped;
}
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
