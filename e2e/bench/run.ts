// `npm run bench:<name> -- [args]`: runs e2e/bench/<name>.ts, passes its output through, and keeps
// the latest run of each benchmark in e2e/bench/RESULTS.md with the machine and its load, so that
// measured figures live in one generated place instead of the folders' READMEs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z-]+$/.test(name) || !fs.existsSync(path.join(here, `${name}.ts`))) {
  console.error(`usage: run.ts <benchmark> [args]; benchmarks: ${benchNames().join(', ')}`);
  process.exit(2);
}

function benchNames() {
  return fs
    .readdirSync(here)
    .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
    .map((f) => f.slice(0, -3));
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const startLoad = load();
const started = new Date();
const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, `${name}.ts`), ...args], {
  stdio: ['inherit', 'pipe', 'inherit'],
});
let output = '';
child.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  output += chunk.toString('utf8');
});
child.on('close', (code) => {
  if (code === 0) record(output);
  process.exit(code ?? 1);
});

function record(text: string) {
  const file = path.join(here, 'RESULTS.md');
  const header =
    '# Benchmark results\n\nWritten by `e2e/bench/run.ts` (every `npm run bench:*`): the latest run of each benchmark, as it printed.\n';
  const sections = new Map<string, string>();
  if (fs.existsSync(file)) {
    // Sections are `## bench:…` and `## history…`; a benchmark's own output may print `## …` lines.
    for (const part of fs
      .readFileSync(file, 'utf8')
      .split(/^## (?=bench:|history)/m)
      .slice(1)) {
      sections.set(part.slice(0, part.indexOf('\n')).trim(), `## ${part.trimEnd()}\n`);
    }
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const argsText = args.length > 0 ? ` ${args.join(' ')}` : '';
  // A mode word as the first argument (`bench:scale -- service`) keeps a section of its own.
  const key = /^[a-z][a-z-]*$/.test(args[0] ?? '') ? `bench:${name} ${args[0]}` : `bench:${name}`;
  sections.set(
    key,
    [
      `## ${key}`,
      '',
      `${started.toISOString()}${argsText}; Node ${process.version}, ${os.cpus().length} × ${cpu}, ` +
        `${Math.round(os.totalmem() / 2 ** 30)} GiB; load average ${startLoad} at the start, ${load()} at the end`,
      '',
      '```',
      text.trimEnd(),
      '```',
      '',
    ].join('\n'),
  );
  const body = [...sections.keys()]
    .sort()
    .map((key) => sections.get(key))
    .join('\n');
  fs.writeFileSync(file, `${header}\n${body}`);
}
