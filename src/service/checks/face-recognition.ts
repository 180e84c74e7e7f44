import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Tf from '@tensorflow/tfjs-core';
import type { DetectedFace } from '@/shared/face-rules';

/**
 * The face match's descriptor: dlib's 128-d ResNet face recognition network (99.38 % on LFW as
 * published), with the weights `@vladmandic/face-api` ships (`model/face_recognition_model.*`,
 * 6.4 MB, uint8-quantized), run here on TensorFlow.js ops (the same runtime and wasm backend as
 * Human, without face-api's own bundle). Its input is a 150×150 face chip cut from the analysed
 * image along Human's face mesh: levelled on the eyes, spanning the brows to the chin and cheek to
 * cheek with a tenth of margin, as face-api cuts it from its 68 landmarks.
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

// Facemesh indices: the brows, the face's outline from cheek to chin to cheek, the eyes' corners.
const BROWS = [70, 63, 105, 66, 107, 336, 296, 334, 293, 300];
const OUTLINE = [
  234, 93, 132, 58, 172, 136, 150, 149, 176, 148, 152, 377, 400, 378, 379, 365, 397, 288, 361, 323, 454,
];
const EYE_A = [33, 133];
const EYE_B = [362, 263];

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

/** The similarity transform (tf.image.transform's 8 numbers) from the chip's pixels to the image's. */
export function chipTransform(mesh: DetectedFace['mesh']): number[] | undefined {
  const at = (i: number) => mesh[i];
  const centre = (ids: number[]) => {
    const points = ids.map(at);
    if (points.some((p) => !p)) return undefined;
    return [
      points.reduce((s, p) => s + p[0], 0) / points.length,
      points.reduce((s, p) => s + p[1], 0) / points.length,
    ];
  };
  const a = centre(EYE_A);
  const b = centre(EYE_B);
  const points = [...BROWS, ...OUTLINE].map(at);
  if (!a || !b || points.some((p) => !p)) return undefined;
  const left = a[0] <= b[0] ? a : b;
  const right = a[0] <= b[0] ? b : a;
  const angle = Math.atan2(right[1] - left[1], right[0] - left[0]);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const [ox, oy] = [(left[0] + right[0]) / 2, (left[1] + right[1]) / 2];
  // The outline in the levelled frame (rotated by −angle about the eyes' midpoint).
  const xs = points.map((p) => cos * (p[0] - ox) + sin * (p[1] - oy));
  const ys = points.map((p) => -sin * (p[0] - ox) + cos * (p[1] - oy));
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const side = Math.max(x1 - x0, y1 - y0) * 1.2;
  if (!(side > 0)) return undefined;
  const k = side / CHIP;
  const [cx, cy] = [(x0 + x1) / 2 - side / 2, (y0 + y1) / 2 - side / 2];
  // Chip pixel (u, v) → levelled point (cx + k·u, cy + k·v) → image point, rotated back by angle.
  return [k * cos, -k * sin, cos * cx - sin * cy + ox, k * sin, k * cos, sin * cx + cos * cy + oy, 0, 0];
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
 * The 128-d descriptor of the face whose mesh is given, in `image` (int32 or float RGB,
 * [height, width, 3]); undefined when the mesh lacks the landmarks the chip is cut along.
 */
export async function recognitionDescriptor(
  net: RecognitionNet,
  image: Tf.Tensor3D,
  mesh: DetectedFace['mesh'],
  mirrored = false,
): Promise<number[] | undefined> {
  const transform = chipTransform(mesh);
  if (!transform) return undefined;
  const { tf } = net;
  const descriptor = tf.tidy(() => {
    const batch = tf.expandDims(tf.cast(image, 'float32'), 0) as Tf.Tensor4D;
    let chip = tf.image.transform(batch, tf.tensor2d([transform]), 'bilinear', 'nearest', 0, [CHIP, CHIP]);
    if (mirrored) chip = tf.concat([chip, tf.reverse(chip, 2)], 0);
    let out = tf.div(tf.sub(chip, tf.tensor1d(MEAN_RGB)), 255) as Tf.Tensor4D;
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
