// `npm test`: lint, type check, Vitest, Playwright, each run even when an earlier one fails,
// then one closing line that sums them all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const results = 'test-results';
mkdirSync(results, { recursive: true });
for (const file of ['vitest.json', 'playwright.json']) rmSync(`${results}/${file}`, { force: true });

let passed = 0;
let failed = 0;
const run = (name, command, args) => {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  return status === 0;
};
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

// Lint and the type check count as one test each.
for (const [name, args] of [
  ['lint', ['eslint', '.', '--max-warnings', '0']],
  ['typecheck', ['tsc', '--noEmit']],
]) {
  if (run(name, 'npx', args)) passed++;
  else failed++;
}

const unitOk = run('unit and integration (vitest)', 'npx', ['vitest', 'run']);
const vitest = readJson(`${results}/vitest.json`);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  if (!unitOk && vitest.numFailedTests === 0) failed++; // a suite that failed to load
} else if (!unitOk) failed++;

const e2eOk = run('end to end (playwright)', 'npx', ['playwright', 'test']);
const playwright = readJson(`${results}/playwright.json`);
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
  if (!e2eOk && playwright.stats.unexpected === 0) failed++;
} else if (!e2eOk) failed++;

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
