// Prints one closing line for the whole suite from the runners' JSON reports:
// "Tests: N passed, N failed" (vitest and Playwright together), after the ten slowest tests.
import fs from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const timings = [];
const read = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null);

const vitest = read('.tmp/reports/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + (vitest.numTodoTests ?? 0);
  for (const file of vitest.testResults) {
    const where = file.name.slice(file.name.indexOf('tests/'));
    for (const test of file.assertionResults) if (test.duration) timings.push({ ms: test.duration, name: `${where} › ${test.title}` });
  }
}
const pw = read(`.tmp/reports/playwright-${process.env.E2E_PORT_BASE || 3100}.json`);
if (pw) {
  passed += pw.stats.expected;
  failed += pw.stats.unexpected + (pw.stats.flaky ?? 0);
  skipped += pw.stats.skipped;
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests)
        for (const result of test.results) timings.push({ ms: result.duration, name: `tests/e2e/${file} › ${spec.title}` });
    }
    for (const child of suite.suites ?? []) walk(child, file);
  };
  for (const suite of pw.suites) walk(suite, suite.file);
}
timings.sort((a, b) => b.ms - a.ms);
if (timings.length > 0) {
  console.log('Slowest tests:');
  for (const { ms, name } of timings.slice(0, 10)) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);
}
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
