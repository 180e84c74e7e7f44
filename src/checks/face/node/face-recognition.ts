import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Tf from '@tensorflow/tfjs-core';
import type { DetectedFace } from '@/checks/face/face-rules';
import { meshChip } from './face-align';

/**
 * The face match's descriptor: dlib's 128-d ResNet face recognition network (99.38 % on LFW as
 * published), with the weights `@vladmandic/face-api` ships (`model/face_recognition_model.*`,
 * 6.4 MB, uint8-quantized), run here on TensorFlow.js ops (the same runtime and wasm backend as
 * Human, without face-api's own bundle). Its input is the 150×150 chip dlib trained it on: points
 * of Human's face mesh (eyes, nose, mouth corners; the iris model refines the eyes) mapped by a
 * least-squares similarity onto dlib's mean face (`CHIP_ALIGNMENT`), supersampled (`face-align.ts`).
 * bench:descriptors measures it beside the former chips: all 33 points dlib's
 * `get_face_chip_details` aligns on (`DLIB_33_ALIGNMENT`), five points (eye centres, nose tip,
 * mouth corners) onto the same mean face, and before that a box from the brows to the chin, as
 * face-api cuts it.
 */

const require = createRequire(import.meta.url);
const MODEL = 'face_recognition_model';
/** Where the weights live in node_modules: only these two files are read. */
export const recognitionModelFiles = () => {
  const dir = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
  return { manifest: join(dir, `${MODEL}-weights_manifest.json`), weights: join(dir, `${MODEL}.bin`) };
};

const CHIP = 150;
const MEAN_RGB = [122.782, 117.001, 104.298];

type Params = Record<string, Tf.Tensor>;
export interface RecognitionNet {
  tf: typeof Tf;
  params: Params;
}

export async function loadRecognitionNet(tf: typeof Tf): Promise<RecognitionNet> {
  const files = recognitionModelFiles();
  const manifest = JSON.parse(await readFile(files.manifest, 'utf8')) as {
    weights: Tf.io.WeightsManifestEntry[];
  }[];
  const bytes = await readFile(files.weights);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const params = tf.io.decodeWeights(
    buffer,
    manifest.flatMap((group) => group.weights),
  ) as Params;
  return { tf, params };
}

function convLayer(net: RecognitionNet, x: Tf.Tensor4D, name: string, stride: 1 | 2, relu: boolean) {
  const { tf, params } = net;
  const padding = stride === 2 ? 'valid' : 'same';
  let out = tf.conv2d(x, params[`${name}/conv/filters`] as Tf.Tensor4D, stride, padding);
  out = tf.add(out, params[`${name}/conv/bias`]);
  out = tf.add(tf.mul(out, params[`${name}/scale/weights`]), params[`${name}/scale/biases`]);
  return (relu ? tf.relu(out) : out) as Tf.Tensor4D;
}

function residual(net: RecognitionNet, x: Tf.Tensor4D, name: string) {
  const out = convLayer(net, convLayer(net, x, `${name}/conv1`, 1, true), `${name}/conv2`, 1, false);
  return net.tf.relu(net.tf.add(out, x)) as Tf.Tensor4D;
}

function residualDown(net: RecognitionNet, x: Tf.Tensor4D, name: string) {
  const { tf } = net;
  let out = convLayer(net, convLayer(net, x, `${name}/conv1`, 2, true), `${name}/conv2`, 1, false);
  let pooled = tf.avgPool(x, 2, 2, 'valid');
  // The strided 'valid' convolution drops the odd row and column the pooling keeps: zeros refill them.
  if (pooled.shape[1] !== out.shape[1] || pooled.shape[2] !== out.shape[2]) {
    const [n, h, w, c] = out.shape;
    out = tf.concat([out, tf.zeros([n, 1, w, c])], 1);
    out = tf.concat([out, tf.zeros([n, h + 1, 1, c])], 2);
  }
  if (pooled.shape[3] !== out.shape[3]) pooled = tf.concat([pooled, tf.zeros(pooled.shape)], 3);
  return tf.relu(tf.add(pooled, out)) as Tf.Tensor4D;
}

// dlib's mean face shape, points 17–67 of its 68 in the unit square (dlib's
// `get_face_chip_details`, image_transforms/interpolation.h).
const MEAN_FACE_X = [
  0.000213256, 0.0752622, 0.18113, 0.29077, 0.393397, 0.586856, 0.689483, 0.799124, 0.904991, 0.98004,
  0.490127, 0.490127, 0.490127, 0.490127, 0.36688, 0.426036, 0.490127, 0.554217, 0.613373, 0.121737, 0.187122,
  0.265825, 0.334606, 0.260918, 0.182743, 0.645647, 0.714428, 0.793132, 0.858516, 0.79751, 0.719335, 0.254149,
  0.340985, 0.428858, 0.490127, 0.551395, 0.639268, 0.726104, 0.642159, 0.556721, 0.490127, 0.423532,
  0.338094, 0.290379, 0.428096, 0.490127, 0.552157, 0.689874, 0.553364, 0.490127, 0.42689,
];
const MEAN_FACE_Y = [
  0.106454, 0.038915, 0.0187482, 0.0344891, 0.0773906, 0.0773906, 0.0344891, 0.0187482, 0.038915, 0.106454,
  0.203352, 0.307009, 0.409805, 0.515625, 0.587326, 0.609345, 0.628106, 0.609345, 0.587326, 0.216423,
  0.178758, 0.179852, 0.231733, 0.245099, 0.244077, 0.231733, 0.179852, 0.178758, 0.216423, 0.244077,
  0.245099, 0.780233, 0.745405, 0.727388, 0.742578, 0.727388, 0.745405, 0.780233, 0.864805, 0.902192,
  0.909281, 0.902192, 0.864805, 0.784792, 0.778746, 0.785343, 0.778746, 0.784792, 0.824182, 0.831803,
  0.824182,
];
/**
 * The points dlib aligns its chips on (its 68-point numbering: nose 27–35, eyes 36–47, the mouth's
 * outer line 48–54 and upper inner lip 60–64; brows, jaw and lower lip left out, as
 * `get_face_chip_details` leaves them), each with the facemesh landmark at the same place.
 */
// prettier-ignore
const DLIB_TO_MESH: readonly (readonly [number, number])[] = [
  [27, 168], [28, 197], [29, 5], [30, 4], [31, 75], [32, 97], [33, 2], [34, 326], [35, 305],
  [36, 33], [37, 160], [38, 158], [39, 133], [40, 153], [41, 144],
  [42, 362], [43, 385], [44, 387], [45, 263], [46, 373], [47, 380],
  [48, 61], [49, 39], [50, 37], [51, 0], [52, 267], [53, 269], [54, 291],
  [60, 78], [61, 82], [62, 13], [63, 312], [64, 308],
];
/** The points an alignment maps onto dlib's template, and where they go in the 150 px chip. */
export interface ChipAlignment {
  landmarks: readonly number[];
  template: readonly (readonly [number, number])[];
}

/**
 * Where dlib's mean-face points go in the 150 px chip: placed as `get_face_chip_details(shape,
 * 150, 0.25)` places them, (v + 0.25) / 1.5 of the chip, the crop the network was trained on.
 */
const alignmentOn = (points: readonly (readonly [number, number])[]): ChipAlignment => ({
  landmarks: points.map(([, mesh]) => mesh),
  template: points.map(
    ([dlib]) =>
      [
        ((MEAN_FACE_X[dlib - 17] + 0.25) / 1.5) * CHIP,
        ((MEAN_FACE_Y[dlib - 17] + 0.25) / 1.5) * CHIP,
      ] as const,
  ),
});

/**
 * All 33 points dlib's `get_face_chip_details` aligns a 68-point shape on: the face match's
 * alignment until the eye points came from the iris model (kept for bench:descriptors).
 */
export const DLIB_33_ALIGNMENT = alignmentOn(DLIB_TO_MESH);

/**
 * The face match's alignment: dlib's points of the nose and eyes and the two mouth corners (23 of
 * its 33; the lips between the corners left out), the eye points refined by the iris model
 * (FACE_USE_MODELS.descriptor). The lips move with the expression and pulled the chip of a grin or
 * an open mouth off the face; with the iris model's eye contours the eyes are the surest points.
 * bench:descriptors on the dev set (with FACE_MATCH_VIEWS): see FACE_MATCH_MIN_SIMILARITY.
 */
export const CHIP_ALIGNMENT = alignmentOn(DLIB_TO_MESH.filter(([dlib]) => dlib <= 48 || dlib === 54));
/** The facemesh landmarks the chip is aligned on. */
export const CHIP_LANDMARKS = CHIP_ALIGNMENT.landmarks;
/** Where those landmarks go in the 150 px chip. */
export const DLIB_CHIP_TEMPLATE = CHIP_ALIGNMENT.template;

/** A template turned by `degrees` and scaled by `scale` about the chip's centre. */
const movedTemplate = (template: ChipAlignment['template'], degrees: number, scale = 1) => {
  const [cos, sin] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  const c = CHIP / 2;
  return template.map(([x, y]) => {
    const [u, v] = [scale * (x - c), scale * (y - c)];
    return [c + cos * u - sin * v, c + sin * u + cos * v] as const;
  });
};

export interface DescriptorViews {
  /** Chips turned by these angles (degrees) about the aligned chip's centre, their descriptors averaged. */
  turns?: readonly number[];
  /** Unturned chips with the template scaled by these factors about the centre (over 1: less margin), averaged in too. */
  scales?: readonly number[];
  /** Each chip's mirror image too. */
  mirrored?: boolean;
  /** The landmarks and template the chips are aligned on (CHIP_ALIGNMENT unless said). */
  alignment?: ChipAlignment;
}

/**
 * The views the face match describes a face from: the aligned chip, the same chip turned 4° either
 * way and one with the template 5 % larger (a little less margin), their descriptors averaged (the
 * pose, the landmarks' jitter and the crop then weigh less). bench:descriptors on the dev set, with
 * CHIP_ALIGNMENT on the iris-refined mesh and the distance as the score: see
 * FACE_MATCH_MIN_SIMILARITY; ~100 ms a face (four chips through the network) instead of ~30 for one.
 * The mirror image, averaged in, lowered the equal error a little but raised the different-people
 * tail: its FRR at FAR ≤ 0.1 % was worse in every combination measured.
 */
export const FACE_MATCH_VIEWS: DescriptorViews = { turns: [0, -4, 4], scales: [1.05] };

/**
 * The 128-d descriptor of the face whose mesh is given, in `image` (int32 or float RGB,
 * [height, width, 3]); undefined when the mesh lacks the landmarks the chip is cut along. With
 * several views, the mean of their descriptors (one batch through the network).
 */
export async function recognitionDescriptor(
  net: RecognitionNet,
  image: Tf.Tensor3D,
  mesh: DetectedFace['mesh'],
  { turns = [0], scales = [], mirrored = false, alignment = CHIP_ALIGNMENT }: DescriptorViews = {},
): Promise<number[] | undefined> {
  const chips: Tf.Tensor4D[] = [];
  const templates = [
    ...turns.map((turn) => movedTemplate(alignment.template, turn)),
    ...scales.map((scale) => movedTemplate(alignment.template, 0, scale)),
  ];
  try {
    for (const template of templates) {
      const chip = meshChip(net.tf, image, mesh, alignment.landmarks, template, CHIP);
      if (!chip) return undefined;
      chips.push(chip);
    }
    const batch = chips.length === 1 ? chips[0] : (net.tf.concat(chips, 0) as Tf.Tensor4D);
    try {
      return await chipDescriptor(net, batch, mirrored);
    } finally {
      if (batch !== chips[0]) batch.dispose();
    }
  } finally {
    for (const chip of chips) chip.dispose();
  }
}

/** The mean descriptor of a batch of 150×150 RGB chips (float32 0–255, [n, 150, 150, 3]). */
export async function chipDescriptor(net: RecognitionNet, chip: Tf.Tensor4D, mirrored = false) {
  const { tf } = net;
  const descriptor = tf.tidy(() => {
    const batch = mirrored ? tf.concat([chip, tf.reverse(chip, 2)], 0) : chip;
    let out = tf.div(tf.sub(batch, tf.tensor1d(MEAN_RGB)), 255) as Tf.Tensor4D;
    out = convLayer(net, out, 'conv32_down', 2, true);
    out = tf.maxPool(out, 3, 2, 'valid');
    for (const name of ['conv32_1', 'conv32_2', 'conv32_3']) out = residual(net, out, name);
    out = residualDown(net, out, 'conv64_down');
    for (const name of ['conv64_1', 'conv64_2', 'conv64_3']) out = residual(net, out, name);
    out = residualDown(net, out, 'conv128_down');
    for (const name of ['conv128_1', 'conv128_2']) out = residual(net, out, name);
    out = residualDown(net, out, 'conv256_down');
    for (const name of ['conv256_1', 'conv256_2']) out = residual(net, out, name);
    out = residualDown(net, out, 'conv256_down_out');
    const descriptors = tf.matMul(tf.mean(out, [1, 2]) as Tf.Tensor2D, net.params.fc as Tf.Tensor2D);
    return tf.mean(descriptors, 0);
  });
  try {
    return Array.from(await descriptor.data());
  } finally {
    descriptor.dispose();
  }
}
