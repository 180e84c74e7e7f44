// `npm run bench:checks`: the time of each pixel check of the embedded service per image, in this
// process on one thread (p50/p99 over BENCH_ROUNDS rounds of the committed samples), next to the
// baseline every photo already pays: the one decode and metrics of image.ts. Model loading is timed
// apart (once per process). The machine's load average is printed with the figures.
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { inspectImage } from '@/checks/image/node/image';
import { detectFacesInFile, loadFaceModels } from '@/checks/face/node/faces';
import { videoFaces } from '@/service/checks/face-checks';
import { closeMrzReader, readMrz, readMrzBands, warmMrzReader } from '@/checks/mrz/node/mrz';
import type { MrzBandRead } from '@/checks/mrz/node/mrz-bands';
import { samplePath as sampleFile } from '../fixtures/samples';
import { percentile } from './lib/percentile';

/** A sample's path, or a path as given (a fixture outside the samples). */
const samplePath = (file: string) => (file.startsWith('/') ? file : sampleFile(file));

const rounds = Number(process.env.BENCH_ROUNDS ?? 10);

async function timed<T>(run: () => Promise<T>) {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function load(label: string, run: () => Promise<unknown>) {
  console.log(`${label.padEnd(34)} loaded in ${(await timed(run)).toFixed(0)} ms`);
}
await load('faces (Human wasm, 4 models)', loadFaceModels);
await load('MRZ OCR (tesseract.js worker)', warmMrzReader);

// The samples (DejaVu Sans Mono; the bad one's check digit fails, so the OCR reads it too) and a
// page printed in OCR-B, as real passports are.
const passports = [
  'gb-passport.jpg',
  'us-passport-expired.jpg',
  'document-bad-mrz.jpg',
  fileURLToPath(new URL('../fixtures/photos/ocr-b-passport.jpg', import.meta.url)),
];
const bandsOf = new Map<string, MrzBandRead[]>();
for (const file of passports) {
  const inspected = await inspectImage(samplePath(file), { mrz: true });
  bandsOf.set(samplePath(file), inspected.ok ? (inspected.mrzBands ?? []) : []);
}

const checks: [string, string[], (path: string) => Promise<unknown>][] = [
  [
    'baseline: decode + metrics',
    ['selfie.jpg', 'gb-passport.jpg', 'ar-national-id-back.jpg'],
    (p) => inspectImage(p),
  ],
  [
    'faces: selfie',
    ['selfie.jpg', 'selfie-closed-eyes.jpg', 'selfie-no-face.jpg'],
    (p) => detectFacesInFile(p, 'selfie'),
  ],
  ['faces: two-face selfie', ['selfie-multiple-faces.jpg'], (p) => detectFacesInFile(p, 'selfie')],
  [
    'faces: document portrait',
    ['gb-passport.jpg', 'ar-national-id-front.jpg'],
    (p) => detectFacesInFile(p, 'count'),
  ],
  [
    // Taken when the verification is processed, for the accepted selfie and portrait only.
    'face match: descriptor of one face',
    ['selfie.jpg', 'gb-passport.jpg'],
    (p) => detectFacesInFile(p, 'descriptor'),
  ],
  ['MRZ: passport (own decode)', passports, readMrz],
  // In send-input the bands come from the one decode (image worker), with the glyph reader's
  // reading; then the OCR runs only on a band the glyph reader did not read alone.
  ['MRZ: bands + glyph reader in the one decode', passports, (p) => inspectImage(p, { mrz: true })],
  ['MRZ: read of the bands (glyphs, else OCR)', passports, (p) => readMrzBands(bandsOf.get(p) ?? [])],
  [
    'MRZ: OCR of the bands (previous path)',
    passports,
    (p) => readMrzBands((bandsOf.get(p) ?? []).map(({ pgm }) => ({ pgm }))),
  ],
  ['MRZ: card without one', ['document-no-mrz.jpg'], readMrz],
  [
    'PDF417: DNI back',
    ['ar-national-id-back.jpg', 'document-bad-pdf417.jpg'],
    // The one decode with the barcode reader on, as send-input runs it.
    (p) => inspectImage(p, { pdf417: true }),
  ],
  ['video: 3 frames (ffmpeg + face count)', ['liveness.mp4', 'video-no-face.mp4'], (p) => videoFaces(p, {})],
];

// One warm-up pass, so that wasm kernels of each input size are compiled before timing.
for (const [, files, run] of checks) for (const f of files) await run(samplePath(f));

const results: { label: string; p50: number; p99: number }[] = [];
for (const [label, files, run] of checks) {
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) for (const f of files) times.push(await timed(() => run(samplePath(f))));
  results.push({ label, p50: percentile(times, 50), p99: percentile(times, 99) });
}
const base = results[0].p50;
console.log(`\nper image, ${rounds} rounds (ratio = p50 / baseline p50)`);
for (const r of results) {
  console.log(
    `${r.label.padEnd(34)} p50 ${r.p50.toFixed(0).padStart(5)} ms  p99 ${r.p99.toFixed(0).padStart(5)} ms  ×${(r.p50 / base).toFixed(1)}`,
  );
}
// The machine may be shared: the figures mean little without its load.
console.log(
  `\nload average (1, 5, 15 min): ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')} on ${cpus().length} cores`,
);
await closeMrzReader();
process.exit(0);
