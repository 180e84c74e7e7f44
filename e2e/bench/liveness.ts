// `node --import tsx e2e/bench/liveness.ts <eval folder>`: Human's antispoof and liveness scores
// on the folder's real photos and on screen and print replays made from them in memory
// (lib/accuracy-liveness.ts), with the pass mark that refuses at most 2 % of genuine people and
// the share of each kind of replay it would catch. Nothing is written or uploaded.
import { livenessSection } from './lib/accuracy-liveness';
import { loadEvalSet } from './lib/eval-set';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node --import tsx e2e/bench/liveness.ts <folder laid out like ../shared/eval>');
  process.exit(2);
}
const section = await livenessSection(loadEvalSet(dir));
console.log(`# ${section.name}`);
for (const line of section.lines) console.log(line);
console.log(JSON.stringify(section.figures));
process.exit(0);
