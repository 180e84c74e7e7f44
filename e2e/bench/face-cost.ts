// `npm run bench:face-cost -- /work/shared/eval`: where a face check's CPU goes, per image, on the
// eval set's good selfies (kind face, expect ok), in this process on one thread. Each step is timed
// on its own (process CPU time, p50/p99), after one untimed round per image: the decode, Human's
// detect as the selfie check runs it, the crowd tiles' detector pass through Human's detect (the
// previous path: the tile sliced at full size, cast and resized by Human) against the model called
// directly on the four tiles resized in one pass (faces.ts tileCandidates, whose boxes and scores
// must equal Human's on every tile), the blazeface model alone, and the whole face check
// (decode + detectFacesInPixels with the crowd tiles). The machine's load average is printed.
import { loadavg } from 'node:os';
import type * as Tf from '@tensorflow/tfjs-core';
import {
  decodeForFaces,
  detectFacesInPixels,
  loadFaceModels,
  tileCandidates,
  type DetectorModel,
  type HumanFace,
} from '@/service/checks/faces';
import { faceUseConfig } from '@/shared/face-rules';
import { loadEvalSet } from './lib/eval-set';
import { percentile } from './lib/percentile';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run bench:face-cost -- <eval folder>');
  process.exit(2);
}
const entries = loadEvalSet(dir).entries.filter((e) => e.kind === 'face' && e.expect === 'ok');
const models = await loadFaceModels();
const tf = models.tf as unknown as typeof Tf;
// The runtime's Human, with what faces.ts keeps private: its detect on any tensor, its models.
const human = models.human as unknown as {
  detect(input: Tf.Tensor, config?: unknown): Promise<{ face: HumanFace[] }>;
  models: { models: Record<string, unknown> };
};
const detector = human.models.models.blazeface as DetectorModel;
const DETECTOR_ONLY = { face: { mesh: { enabled: false }, iris: { enabled: false } } };

const cpuMs = async (run: () => Promise<unknown>) => {
  const start = process.cpuUsage();
  await run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
const times = new Map<string, number[]>();
const record = (step: string, ms: number) => times.set(step, [...(times.get(step) ?? []), ms]);
let tilesSame = 0;
const tilesDiffering: string[] = [];

/** The previous crowd pass: Human's detector-only detect on each tile sliced out at full size. */
async function humanTiles(image: Tf.Tensor3D, width: number, height: number) {
  const [tw, th] = [Math.ceil(width * 0.6), Math.ceil(height * 0.6)];
  const found: HumanFace[][] = [];
  for (const left of [0, width - tw]) {
    for (const top of [0, height - th]) {
      const tile = tf.slice(image, [top, left, 0], [th, tw, 3]);
      found.push((await human.detect(tile, DETECTOR_ONLY)).face);
      tile.dispose();
    }
  }
  return found;
}
const boxes = (faces: HumanFace[]) => JSON.stringify(faces.map((f) => [f.box, f.boxScore]));

for (const entry of entries) {
  const { data, info } = await decodeForFaces(entry.path);
  const { width, height } = info;
  const pixels = () => ({ data: new Uint8Array(data), width, height, channels: 3 as const });
  const image = tf.tensor3d(Int32Array.from(data), [height, width, 3], 'int32');
  const input = tf.tidy(() =>
    tf.sub(
      tf.div(
        tf.image.resizeBilinear(tf.cast(tf.expandDims(image, 0), 'float32') as Tf.Tensor4D, [256, 256]),
        127.5,
      ),
      1,
    ),
  );
  for (const timed of [false, true]) {
    const step = async (name: string, run: () => Promise<unknown>) => {
      const ms = await cpuMs(run);
      if (timed) record(name, ms);
    };
    await step('decode (decodeForFaces)', () => decodeForFaces(entry.path));
    await step("Human detect, whole image, 'selfie' models", () =>
      human.detect(image, faceUseConfig('selfie')),
    );
    await step('Human detect, whole image, detector only', () => human.detect(image, DETECTOR_ONLY));
    await step('blazeface model.execute alone [1,256,256,3]', async () => {
      const out = detector.execute(input);
      for (const t of [out].flat()) await t.data();
      tf.dispose(out);
    });
    let previous: HumanFace[][] = [];
    let direct: HumanFace[][] = [];
    await step('crowd pass, 4 tiles: Human detect (previous)', async () => {
      previous = await humanTiles(image, width, height);
    });
    await step('crowd pass, 4 tiles: model direct (now)', async () => {
      direct = await tileCandidates(tf, detector, image, width, height);
    });
    if (timed) {
      for (const [i, faces] of previous.entries()) {
        if (boxes(faces) === boxes(direct[i])) tilesSame++;
        else tilesDiffering.push(`${entry.file} tile ${i}: ${boxes(faces)} vs ${boxes(direct[i])}`);
      }
    }
    await step("face check now: decode + detect 'selfie' with crowd tiles", async () => {
      const decoded = await decodeForFaces(entry.path);
      await detectFacesInPixels(
        {
          data: new Uint8Array(decoded.data),
          width: decoded.info.width,
          height: decoded.info.height,
          channels: 3,
        },
        'selfie',
        { crowd: true },
      );
    });
    await step("detect 'selfie' without crowd tiles (pixels decoded before)", async () => {
      await detectFacesInPixels(pixels(), 'selfie');
    });
  }
  tf.dispose([image, input]);
}

console.log(
  `${entries.length} good selfies of ${dir}; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log('CPU ms per image (p50 / p99):');
for (const [name, values] of times)
  console.log(
    `  ${name.padEnd(62)} ${percentile(values, 50).toFixed(0).padStart(4)} / ${percentile(values, 99).toFixed(0)}`,
  );
console.log(
  `crowd tiles whose direct boxes and scores equal Human's: ${tilesSame}/${tilesSame + tilesDiffering.length}`,
);
for (const line of tilesDiffering) console.log(`  ${line}`);
if (tilesDiffering.length) process.exitCode = 1;
