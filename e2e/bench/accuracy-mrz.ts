// `npm run bench:accuracy-mrz -- ../shared/eval [--verbose]`: the MRZ section of the accuracy report
// (e2e/bench/lib/accuracy-mrz.ts) run alone, on a folder laid out like ../shared/eval.
import { mrzAccuracy } from './lib/accuracy-mrz';
import { loadEvalSet } from './lib/eval-set';

const args = process.argv.slice(2);
const dir = args.find((a) => !a.startsWith('--'));
if (!dir) throw new Error('usage: bench:accuracy-mrz -- <folder laid out like ../shared/eval> [--verbose]');
const section = await mrzAccuracy(loadEvalSet(dir), { verbose: args.includes('--verbose') });
console.log(`## ${section.name}`);
for (const line of section.lines) console.log(line);
console.log(JSON.stringify({ [section.name]: section.figures }));
