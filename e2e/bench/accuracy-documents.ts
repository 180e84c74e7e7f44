// `npm run bench:accuracy-documents -- ../shared/eval`: the documents section of the accuracy report
// (e2e/bench/lib/accuracy-documents.ts) run alone, on a folder laid out like ../shared/eval.
import { documentsSection } from './lib/accuracy-documents';
import { loadEvalSet } from './lib/eval-set';

const dir = process.argv[2];
if (!dir) throw new Error('usage: bench:accuracy-documents -- <folder laid out like ../shared/eval>');
const section = await documentsSection(loadEvalSet(dir));
console.log(`## ${section.name}`);
for (const line of section.lines) console.log(line);
console.log(JSON.stringify({ [section.name]: section.figures }));
