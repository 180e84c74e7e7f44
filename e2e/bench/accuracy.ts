// `npm run bench:accuracy -- <dir>`: the service's own check code (the functions a send-input and
// the processing call, no HTTP, nothing uploaded) on a folder of labelled photos laid out like
// ../shared/eval (manifest.json: see lib/eval-set.ts). Prints one block per section, then one line
// of JSON with every section's figures. A section is a function of its own module
// (lib/accuracy-<name>.ts) taking the EvalSet and returning an AccuracySection; add one to `sections`.
// Names after the folder run only those sections (`-- ../shared/eval faces`): a section measured
// before and after a change, without the others' minutes.
import { loadavg } from 'node:os';
import { cardSelfieSection } from './lib/accuracy-card-selfie';
import { documentsSection } from './lib/accuracy-documents';
import { documentChecksSection } from './lib/accuracy-document-checks';
import { faceCoverSection } from './lib/accuracy-face-cover';
import { facesAccuracy } from './lib/accuracy-faces';
import { livenessSection } from './lib/accuracy-liveness';
import { mrzAccuracy } from './lib/accuracy-mrz';
import { occlusionSection } from './lib/accuracy-occlusion';
import { printedFieldsAccuracy } from './lib/accuracy-printed-fields';
import { screensSection } from './lib/accuracy-screens';
import { loadEvalSet, type AccuracySection, type EvalSet } from './lib/eval-set';

const sections: Record<string, (set: EvalSet) => Promise<AccuracySection>> = {
  faces: facesAccuracy,
  'face-cover': faceCoverSection,
  mrz: mrzAccuracy,
  liveness: livenessSection,
  documents: documentsSection,
  'document-checks': documentChecksSection,
  'printed-fields': printedFieldsAccuracy,
  screens: screensSection,
  occlusion: occlusionSection,
  'card-selfie': cardSelfieSection,
};

const [dir, ...only] = process.argv.slice(2);
const unknown = only.filter((name) => !(name in sections));
if (!dir || unknown.length > 0) {
  console.error(
    `usage: npm run bench:accuracy -- <folder with manifest.json> [${Object.keys(sections).join(' | ')} …]`,
  );
  process.exit(2);
}
const set = loadEvalSet(dir);
console.log(`${set.entries.length} entries in ${set.dir}; load average ${loadavg()[0].toFixed(1)}`);
const figures: Record<string, unknown> = {};
for (const [name, run] of Object.entries(sections)) {
  if (only.length > 0 && !only.includes(name)) continue;
  const section = await run(set);
  console.log(`\n## ${section.name}`);
  for (const line of section.lines) console.log(line);
  figures[section.name] = section.figures;
}
console.log(JSON.stringify({ dir: set.dir, loadAverage: loadavg()[0], ...figures }));
// The image pool's and the face reader's worker threads stay up for the next check: end them.
process.exit(0);
