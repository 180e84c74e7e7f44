// `npm test`: lint, type check, Vitest, Playwright, each run even when an earlier one fails,
// then one closing line that sums them all.
import { spawn, spawnSync } from 'node:child_process';
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
const run = (name, command, args, env = {}) => {
  console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return status === 0;
};
// The same, without blocking this process: the static checks and the build, started above, go on
// while it runs and their output pipes are read.
const runAlongside = (name, command, args, env = {}) =>
  new Promise((resolve) => {
    console.log(`\n=== ${name}: ${command} ${args.join(' ')}`);
    const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', () => resolve(false));
    child.on('close', (status) => resolve(status === 0));
  });
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

// The end-to-end runs' build (the SPA and the servers beside it) starts first and goes on while
// the static checks and Vitest run: those leave a core idle part of the time, and the build is
// about 40 s of one core that Playwright would otherwise wait for.
const e2ePort = process.env.E2E_PORT ?? '18080';
const e2eDist = `${results}/dist-${e2ePort}`;
const build = new Promise((resolve) => {
  const child = spawn('npx', ['vite', 'build', '--outDir', e2eDist, '--emptyOutDir'], { env: process.env });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.on('error', (error) => resolve({ status: 1, output: `${output}${error.message}\n` }));
  child.on('close', (status) => resolve({ status, output }));
});

// Lint, the type check and the formatting check count as one test each. Each is one thread, so
// they run side by side (about half the time on two cores), and their output is printed in order.
const staticChecks = [
  ['lint', ['eslint', '.', '--max-warnings', '0']],
  ['typecheck', ['tsc', '--noEmit']],
  ['typecheck of server code without the DOM', ['tsc', '--noEmit', '-p', 'src/tsconfig.server.json']],
  [
    'format',
    [
      'prettier',
      '--check',
      'src/**/*.{ts,tsx,css}',
      'e2e/**/*.ts',
      'scripts/**/*.ts',
      '*.{ts,js}',
      '.ci/*.mjs',
    ],
  ],
].map(
  ([name, args]) =>
    new Promise((resolve) => {
      const child = spawn('npx', args, { env: process.env });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', (error) => resolve({ name, args, status: 1, output: `${output}${error.message}\n` }));
      child.on('close', (status) => resolve({ name, args, status, output }));
    }),
);
// Vitest leaves a core idle part of the time (its tests wait on servers and child processes): the
// static checks run in that time, and their output is printed after Vitest's.
const unitOk = await runAlongside('unit and integration (vitest)', 'npx', ['vitest', 'run']);
for (const check of await Promise.all(staticChecks)) {
  const { name, args, status } = check;
  console.log(`\n=== ${name}: npx ${args.join(' ')}`);
  const output = check.output.replace(/^npm warn .*\n/gm, '');
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

const countPlaywright = (ok, file, label) => {
  const playwright = readJson(file);
  if (playwright) {
    passed += playwright.stats.expected + playwright.stats.flaky;
    // No spec skips a test of its own: a skipped one is a project that did not run because one it
    // depends on failed, and a test that could not run is no pass.
    failed += playwright.stats.unexpected + playwright.stats.skipped;
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests ?? [])
          if (test.status === 'unexpected' || test.status === 'flaky' || test.status === 'skipped') {
            const error = test.results?.find((r) => r.error)?.error?.message;
            failures.push(
              `${label} ${test.status} [${test.projectName}] ${spec.file} > ${[...titles, spec.title].join(' > ')}: ${firstLine(error)}`,
            );
          }
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    };
    for (const suite of playwright.suites ?? []) walk(suite, []);
    if (!ok && playwright.stats.unexpected + playwright.stats.skipped === 0) failed++;
  } else if (!ok) failed++;
};

const built = await build;
console.log(`\n=== build for the end-to-end runs: npx vite build --outDir ${e2eDist}`);
if (built.status !== 0) {
  // Playwright then fails to start its product, and says so; the build's own words are here.
  process.stdout.write(built.output);
  failures.push(`build for the end-to-end runs:\n${firstLine(built.output)}`);
} else console.log('built');
// The end-to-end run also starts a second product on PostgreSQL (BFF store, staff events, service
// outbox), in a schema of its own on TEST_DATABASE_URL, on E2E_PORT + 10: its `postgres` project
// runs a verification end to end and the console's live list again, beside the other specs.
const databaseBase = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const e2eSchema = `idv_e2e_${Date.now().toString(36)}_${process.pid}`;
const e2eDatabase = new URL(databaseBase);
e2eDatabase.searchParams.set('options', `-c search_path=${e2eSchema}`);
countPlaywright(
  run('end to end (playwright; the postgres project on PostgreSQL)', 'npx', ['playwright', 'test'], {
    E2E_DIST: e2eDist,
    E2E_DATABASE_URL: e2eDatabase.toString(),
  }),
  `${results}/playwright.json`,
  'playwright',
);
try {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseBase });
  await client.connect();
  // The service's job queue (pg-boss) has a schema beside it.
  for (const schema of [e2eSchema, `${e2eSchema}_jobs`])
    await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
  await client.end();
} catch (error) {
  console.log(`(the schema ${e2eSchema} was not dropped: ${error.message})`);
}

if (failures.length) console.log(`\nWhat failed:\n${failures.map((f) => `  - ${f}`).join('\n')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
