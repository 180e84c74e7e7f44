// `npm run bench:face-cost -- /work/shared/eval`: where a face check's CPU goes, per image, on the
// eval set's good selfies (kind face, expect ok), in this process on one thread. Each step is timed
// on its own (process CPU time, p50/p99), after one untimed round per image: the decode, Human's
// detect as the selfie check runs it, the crowd pass before (blazeface on four tiles squeezed to
// 256 × 256, lib/crowd-tiles-previous.ts) and now (blazeface once on the whole image at 256 px on
// its short side, faces.ts crowdCandidates), the blazeface model alone, and the whole face check
// (decode + detectFacesInPixels with the crowd pass and its confirmations). Every face Human's
// whole-image detect counts must be among the crowd pass's boxes (a box centre inside it). The
// machine's load average is printed.
import { loadavg } from 'node:os';
import type * as Tf from '@tensorflow/tfjs-core';
import {
  crowdCandidates,
  decodeForFaces,
  detectFacesInPixels,
  loadFaceModels,
  type HumanFace,
} from '@/checks/face/node/faces';
import { faceUseConfig } from '@/checks/face/face-rules';
import { tileCandidates, type DetectorModel } from './lib/crowd-tiles-previous';
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
let facesSeen = 0;
const facesMissed: string[] = [];

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
    let whole: HumanFace[] = [];
    await step("Human detect, whole image, 'selfie' models", async () => {
      whole = (await human.detect(image, faceUseConfig('selfie'))).face;
    });
    await step('Human detect, whole image, detector only', () => human.detect(image, DETECTOR_ONLY));
    await step('blazeface model.execute alone [1,256,256,3]', async () => {
      const out = detector.execute(input);
      for (const t of [out].flat()) await t.data();
      tf.dispose(out);
    });
    await step('crowd pass before: 4 tiles squeezed to 256 × 256', () =>
      tileCandidates(tf, detector, image, width, height),
    );
    let boxes: Awaited<ReturnType<typeof crowdCandidates>> = [];
    await step('crowd pass now: whole image, 256 px short side', async () => {
      boxes = await crowdCandidates(tf, models.crowd, image, width, height);
    });
    if (timed) {
      for (const {
        box: [x, y, w, h],
      } of whole) {
        facesSeen++;
        const found = boxes.some(({ box: b }) => {
          const [cx, cy] = [b[0] + b[2] / 2, b[1] + b[3] / 2];
          return cx >= x && cx <= x + w && cy >= y && cy <= y + h;
        });
        if (!found) facesMissed.push(`${entry.file}: ${JSON.stringify([x, y, w, h])}`);
      }
    }
    await step("face check now: decode + detect 'selfie' with the crowd pass", async () => {
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
    await step("detect 'selfie' without the crowd pass (pixels decoded before)", async () => {
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
    `  ${name.padEnd(64)} ${percentile(values, 50).toFixed(0).padStart(4)} / ${percentile(values, 99).toFixed(0)}`,
  );
console.log(
  `faces of Human's whole-image detect among the crowd pass's boxes: ${facesSeen - facesMissed.length}/${facesSeen}`,
);
for (const line of facesMissed) console.log(`  missed ${line}`);
if (facesMissed.length) process.exitCode = 1;
