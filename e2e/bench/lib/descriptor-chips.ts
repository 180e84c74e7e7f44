// The chips and descriptor variants bench:descriptors compares with the face match's own
// (face-recognition.ts): the chips the service cut before, ArcFace-family models' chips, and
// photometric and scale variants of the 33-point chip.
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type * as Tf from '@tensorflow/tfjs-core';
import { alignedChip, meshChip, similarityChip } from '@/checks/face/node/face-align';
import { DLIB_33_ALIGNMENT, chipDescriptor, type RecognitionNet } from '@/checks/face/node/face-recognition';

/** The chip the service cut before the 5-point alignment: the mesh's brows-to-chin box levelled on the eyes, a fifth wider (face-api's way). */
export function boxChip(tf: typeof Tf, image: Tf.Tensor3D, mesh: [number, number, number?][]) {
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
export const DLIB_FIVE_POINTS_150 = [
  [0.2255, 0.216],
  [0.7548, 0.216],
  [0.490127, 0.515625],
  [0.254149, 0.780233],
  [0.726104, 0.780233],
].map(([x, y]) => [((x + 0.25) / 1.5) * 150, ((y + 0.25) / 1.5) * 150] as const);

/** An ArcFace-family graph model's L2-normalised embedding of the insightface-aligned 112 px chip and its mirror, averaged. */
export async function arcfaceDescriptor(
  tf: typeof Tf,
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

/**
 * Photometric normalisations of the aligned chip before the network, measured against the raw chip:
 * `greyWorld` scales each channel to the chip's grey mean (colour cast), `stretch` maps the face's
 * 1st–99th luminance percentiles onto 0–255, `equalised` equalises the face's luminance histogram
 * (`equalisedHalf` moves each pixel half way, a clip-limit of sorts). Statistics come from the
 * chip's face (its middle two thirds: dlib's 0.25 padding is background); each pixel's luminance
 * change is added to its three channels, so the hue stays.
 */
type Photometric = 'greyWorld' | 'stretch' | 'equalised' | 'equalisedHalf';
function normalisedChip(tf: typeof Tf, chip: Tf.Tensor4D, mode: Photometric): Tf.Tensor4D {
  const [, h, w] = chip.shape;
  const px = chip.dataSync();
  const out = new Float32Array(px.length);
  const inFace = (x: number, y: number) => x >= w / 6 && x < (w * 5) / 6 && y >= h / 6 && y < (h * 5) / 6;
  const luma = (i: number) => 0.299 * px[i] + 0.587 * px[i + 1] + 0.114 * px[i + 2];
  const face: number[] = [];
  const sums = [0, 0, 0];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (inFace(x, y)) {
        const i = (y * w + x) * 3;
        face.push(luma(i));
        for (let c = 0; c < 3; c++) sums[c] += px[i + c];
      }
  const clamp = (v: number) => Math.min(255, Math.max(0, v));
  if (mode === 'greyWorld') {
    const grey = (sums[0] + sums[1] + sums[2]) / 3;
    const gains = sums.map((v) => (v > 0 ? grey / v : 1));
    for (let i = 0; i < px.length; i++) out[i] = clamp(px[i] * gains[i % 3]);
  } else {
    let map: (y: number) => number;
    if (mode === 'stretch') {
      const sorted = [...face].sort((a, b) => a - b);
      const [lo, hi] = [sorted[Math.floor(sorted.length * 0.01)], sorted[Math.floor(sorted.length * 0.99)]];
      map = (y) => (hi > lo ? ((y - lo) * 255) / (hi - lo) : y);
    } else {
      const cdf = new Float64Array(256);
      for (const y of face) cdf[Math.min(255, Math.max(0, Math.round(y)))]++;
      for (let k = 1; k < 256; k++) cdf[k] += cdf[k - 1];
      const first = cdf.find((v) => v > 0) ?? 0;
      const share = mode === 'equalised' ? 1 : 0.5;
      map = (y) => {
        const eq =
          ((cdf[Math.min(255, Math.max(0, Math.round(y)))] - first) / (face.length - first || 1)) * 255;
        return y + share * (eq - y);
      };
    }
    for (let i = 0; i < px.length; i += 3) {
      const y = luma(i);
      const delta = map(y) - y;
      for (let c = 0; c < 3; c++) out[i + c] = clamp(px[i + c] + delta);
    }
  }
  return tf.tensor4d(out, chip.shape);
}

/** dlib's template scaled by `scale` about the chip's centre (over 1: the face fills more of the chip, less padding). */
const scaledTemplate = (scale: number) =>
  DLIB_33_ALIGNMENT.template.map(([x, y]) => [75 + scale * (x - 75), 75 + scale * (y - 75)] as const);

/** The descriptor of the 33-point chip, photometrically normalised and/or averaged over template scales. */
export async function variantDescriptor(
  tf: typeof Tf,
  net: RecognitionNet,
  image: Tf.Tensor3D,
  mesh: [number, number, number?][],
  {
    photometric,
    scales = [1],
    mirrored = false,
  }: { photometric?: Photometric; scales?: number[]; mirrored?: boolean },
) {
  const chips: Tf.Tensor4D[] = [];
  try {
    for (const scale of scales) {
      const chip = meshChip(tf, image, mesh, DLIB_33_ALIGNMENT.landmarks, scaledTemplate(scale), 150);
      if (!chip) return undefined;
      chips.push(chip);
      if (photometric) chips.push(normalisedChip(tf, chip, photometric));
    }
    // With a normalisation, only the normalised chips go through the network.
    const used = photometric ? chips.filter((_, k) => k % 2 === 1) : chips;
    const batch = used.length === 1 ? used[0] : (tf.concat(used, 0) as Tf.Tensor4D);
    try {
      return await chipDescriptor(net, batch, mirrored);
    } finally {
      if (!used.includes(batch)) batch.dispose();
    }
  } finally {
    for (const chip of chips) chip.dispose();
  }
}
