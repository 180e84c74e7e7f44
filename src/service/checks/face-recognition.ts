import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Tf from '@tensorflow/tfjs-core';
import type { DetectedFace } from '@/shared/face-rules';
import { alignedChip } from './face-align';

/**
 * The face match's descriptor: dlib's 128-d ResNet face recognition network (99.38 % on LFW as
 * published), with the weights `@vladmandic/face-api` ships (`model/face_recognition_model.*`,
 * 6.4 MB, uint8-quantized), run here on TensorFlow.js ops (the same runtime and wasm backend as
 * Human, without face-api's own bundle). Its input is the 150×150 chip dlib trained it on: five
 * points of Human's face mesh (eye centres, nose tip, mouth corners) mapped by a similarity
 * transform onto dlib's mean face (`DLIB_TEMPLATE_150`), supersampled (`face-align.ts`). The
 * former chip (a box from the brows to the chin, cheek to cheek, levelled on the eyes, as face-api
 * cuts it) put faces at another scale and position than the training chips: on ../shared/eval it
 * refused 51 % of same-person pairs at FAR ≤ 0.1 %, against 11 % aligned (bench:descriptors).
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

/**
 * dlib's chip template for the five points (`face-align.ts` order), in a 150 px chip: the means of
 * the eyes' six points, the nose tip and the mouth's corners of dlib's mean face shape (points
 * 36–41, 42–47, 30, 48, 54 of its 68), placed as `get_face_chip_details(shape, 150, 0.25)` places
 * them: (v + 0.25) / 1.5 of the chip. That is the crop the network was trained on.
 */
export const DLIB_TEMPLATE_150: readonly (readonly [number, number])[] = [
  [0.2255, 0.216],
  [0.7548, 0.216],
  [0.490127, 0.515625],
  [0.254149, 0.780233],
  [0.726104, 0.780233],
].map(([x, y]) => [((x + 0.25) / 1.5) * CHIP, ((y + 0.25) / 1.5) * CHIP] as const);

/** dlib's template turned by `degrees` about the chip's centre. */
const turnedTemplate = (degrees: number) => {
  const [cos, sin] = [Math.cos((degrees * Math.PI) / 180), Math.sin((degrees * Math.PI) / 180)];
  const c = CHIP / 2;
  return DLIB_TEMPLATE_150.map(
    ([x, y]) => [c + cos * (x - c) - sin * (y - c), c + sin * (x - c) + cos * (y - c)] as const,
  );
};

export interface DescriptorViews {
  /** Chips turned by these angles (degrees) about the aligned chip's centre, their descriptors averaged. */
  turns?: readonly number[];
  /** Each chip's mirror image too. */
  mirrored?: boolean;
}

/**
 * The 128-d descriptor of the face whose mesh is given, in `image` (int32 or float RGB,
 * [height, width, 3]); undefined when the mesh lacks the landmarks the chip is cut along. With
 * several views, the mean of their descriptors (one batch through the network).
 */
export async function recognitionDescriptor(
  net: RecognitionNet,
  image: Tf.Tensor3D,
  mesh: DetectedFace['mesh'],
  { turns = [0], mirrored = false }: DescriptorViews = {},
): Promise<number[] | undefined> {
  const chips: Tf.Tensor4D[] = [];
  try {
    for (const turn of turns) {
      const chip = alignedChip(net.tf, image, mesh, CHIP, turnedTemplate(turn), CHIP);
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
