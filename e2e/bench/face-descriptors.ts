// `npm run bench:descriptors -- <dir>`: the face descriptors the face match could use, side by side
// on the same detections of a labelled folder (as bench:accuracy reads it): Human's `faceres` and
// dlib's ResNet (face-recognition.ts, weights of @vladmandic/face-api). Prints per model the
// genuine/impostor similarities, the equal-error rate, the threshold for FAR ≤ 0.1 % and its FRR,
// CPU per face (this process, one image at a time) and the size of the weights read.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type * as Tf from '@tensorflow/tfjs-core';
import { decodeForFaces, humanModelsDir, loadFaceModels } from '@/service/checks/faces';
import {
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

const models = ['faceres', 'resnet', 'resnetMirrored'] as const;
type Model = (typeof models)[number];
const described: Record<Model, { entry: EvalEntry; descriptor: number[] }[]> = {
  faceres: [],
  resnet: [],
  resnetMirrored: [],
};
const cost: Record<Model | 'mesh', number[]> = { faceres: [], resnet: [], resnetMirrored: [], mesh: [] };

for (const entry of entries) {
  const { data, info } = await decodeForFaces(entry.path);
  const image = tf.tensor3d(Int32Array.from(data), [info.height, info.width, 3], 'int32');
  try {
    const mesh = await cpuMs(() => human.detect(image, faceUseConfig('count')));
    const withFaceres = await cpuMs(() => human.detect(image, faceresConfig));
    cost.mesh.push(mesh.ms);
    cost.faceres.push(Math.max(0, withFaceres.ms - mesh.ms));
    const largest = <F extends { box: number[] }>(faces: F[]) =>
      [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
    const face = largest(withFaceres.value.face);
    if (face?.embedding?.length) described.faceres.push({ entry, descriptor: Array.from(face.embedding) });
    if (face) {
      const resnet = await cpuMs(() => recognitionDescriptor(net, image as Tf.Tensor3D, face.mesh));
      cost.resnet.push(resnet.ms);
      if (resnet.value) described.resnet.push({ entry, descriptor: resnet.value });
      const mirrored = await cpuMs(() => recognitionDescriptor(net, image as Tf.Tensor3D, face.mesh, true));
      cost.resnetMirrored.push(mirrored.ms);
      if (mirrored.value) described.resnetMirrored.push({ entry, descriptor: mirrored.value });
    }
  } finally {
    image.dispose();
  }
}

const sizeMb = (files: string[]) => files.reduce((s, f) => s + statSync(f).size, 0) / 1e6;
const sizes: Record<Model, number> = {
  faceres: sizeMb([join(humanModelsDir(), 'faceres.json'), join(humanModelsDir(), 'faceres.bin')]),
  resnet: sizeMb(Object.values(recognitionModelFiles())),
  resnetMirrored: sizeMb(Object.values(recognitionModelFiles())),
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
    `${model.padEnd(8)} faces ${list.length}/${entries.length}; genuine ${fmt(g.min)}/${fmt(g.median)}/${fmt(g.max)}, impostor ${fmt(im.min)}/${fmt(im.median)}/${fmt(im.max)} (min/median/max); EER ${(eer.eer * 100).toFixed(2)} % at ${fmt(eer.threshold)}; FAR ≤ 0.1 % from ${fmt(far.threshold)}: FRR ${(far.frr * 100).toFixed(2)} %; CPU per face p50 ${percentile(cost[model], 50).toFixed(0)} ms, p99 ${percentile(cost[model], 99).toFixed(0)} ms; weights ${sizes[model].toFixed(1)} MB`,
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
