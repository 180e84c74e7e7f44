// `npm test`: lint, type check, Vitest, Playwright, each run even when an earlier one fails,
// then one closing line that sums them all.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const results = 'test-results';
mkdirSync(results, { recursive: true });
for (const file of ['vitest.json', 'playwright.json']) rmSync(`${results}/${file}`, { force: true });

let passed = 0;
let failed = 0;
// The names of what failed, printed again just above the closing line: CI keeps only the tail of the log.
const failures = [];
const escape = String.fromCharCode(27);
const firstLine = (text) =>
  String(text ?? '')
    .replaceAll(new RegExp(`${escape}\\[[0-9;]*m`, 'g'), '')
    .trim()
    .split('\n')[0]
    .slice(0, 300);
const run = (name, command, args) => {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  return status === 0;
};
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

// Lint, the type check and the formatting check count as one test each.
for (const [name, args] of [
  ['lint', ['eslint', '.', '--max-warnings', '0']],
  ['typecheck', ['tsc', '--noEmit']],
  ['typecheck of server code without the DOM', ['tsc', '--noEmit', '-p', 'tsconfig.node.json']],
  ['format', ['prettier', '--check', 'src/**/*.{ts,tsx,css}', 'e2e/**/*.ts', '*.{ts,js}', '.ci/*.mjs']],
]) {
  console.log(`\n=== ${name}: npx ${args.join(' ')}`);
  const { status, stdout, stderr } = spawnSync('npx', args, { encoding: 'utf8', env: process.env });
  const output = `${stdout}${stderr}`.replace(/^npm warn .*\n/gm, '');
  process.stdout.write(output);
  if (status === 0) passed++;
  else {
    failed++;
    failures.push(
      `${name}:\n${output
        .trim()
        .split('\n')
        .slice(0, 15)
        .map((l) => `      ${l}`)
        .join('\n')}`,
    );
  }
}

const unitOk = run('unit and integration (vitest)', 'npx', ['vitest', 'run']);
const vitest = readJson(`${results}/vitest.json`);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  for (const file of vitest.testResults ?? []) {
    const name = file.name.replace(`${process.cwd()}/`, '');
    for (const test of file.assertionResults ?? [])
      if (test.status === 'failed')
        failures.push(`vitest ${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'))
      failures.push(`vitest ${name}: ${firstLine(file.message)}`);
  }
  if (!unitOk && vitest.numFailedTests === 0) failed++; // a suite that failed to load
} else if (!unitOk) failed++;

const e2eOk = run('end to end (playwright)', 'npx', ['playwright', 'test']);
const playwright = readJson(`${results}/playwright.json`);
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? [])
        if (test.status === 'unexpected' || test.status === 'flaky') {
          const error = test.results?.find((r) => r.error)?.error?.message;
          failures.push(
            `playwright ${test.status} ${spec.file} > ${[...titles, spec.title].join(' > ')}: ${firstLine(error)}`,
          );
        }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of playwright.suites ?? []) walk(suite, []);
  if (!e2eOk && playwright.stats.unexpected === 0) failed++;
} else if (!e2eOk) failed++;

if (failures.length)
  console.log(`\nWhat failed (or passed only on a retry):\n${failures.map((f) => `  - ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
