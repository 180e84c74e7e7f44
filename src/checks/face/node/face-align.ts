import type * as Tf from '@tensorflow/tfjs-core';
import type { DetectedFace } from '@/checks/face/face-rules';

/**
 * Face alignment for the recognition networks: landmarks of Human's face mesh (the five points
 * ArcFace-family models were trained on: eye centres, nose tip, mouth corners; or the 33 dlib aligns
 * on, face-recognition.ts) mapped by a least-squares similarity transform onto the network's
 * template, and the chip sampled with supersampling, so that a face far larger than the chip (a
 * 1024 px selfie's face spans ~400 px, the chip 150) is averaged down instead of aliased by a
 * bilinear lookup every fourth pixel.
 */

/** insightface's 112×112 template (arcface_torch, `arcface_dst`): image-left eye, image-right eye, nose tip, mouth corners. */
export const ARCFACE_TEMPLATE_112: readonly (readonly [number, number])[] = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [41.5493, 92.3655],
  [70.7299, 92.2041],
];

// Facemesh indices: each eye's contour (corners and lids), the nose tip, the mouth's corners.
const EYE_IMAGE_LEFT = [33, 133, 159, 145, 160, 144, 158, 153];
const EYE_IMAGE_RIGHT = [362, 263, 386, 374, 385, 380, 387, 373];
const NOSE_TIP = 4;
const MOUTH_IMAGE_LEFT = 61;
const MOUTH_IMAGE_RIGHT = 291;

/** The five points in image pixels, in the template's order; undefined when the mesh lacks one. */
export function fivePoints(mesh: DetectedFace['mesh']): [number, number][] | undefined {
  const centre = (ids: number[]): [number, number] | undefined => {
    const points = ids.map((i) => mesh[i]);
    if (points.some((p) => !p)) return undefined;
    return [
      points.reduce((s, p) => s + p[0], 0) / points.length,
      points.reduce((s, p) => s + p[1], 0) / points.length,
    ];
  };
  const points = [
    centre(EYE_IMAGE_LEFT),
    centre(EYE_IMAGE_RIGHT),
    centre([NOSE_TIP]),
    centre([MOUTH_IMAGE_LEFT]),
    centre([MOUTH_IMAGE_RIGHT]),
  ];
  return points.every((p) => p !== undefined) ? (points as [number, number][]) : undefined;
}

/**
 * The least-squares similarity (scale, rotation, translation; Umeyama) taking `from` points to
 * `to` points, as [a, b, tx, ty] for x' = a·x − b·y + tx, y' = b·x + a·y + ty.
 */
export function similarity(
  from: readonly (readonly [number, number])[],
  to: readonly (readonly [number, number])[],
) {
  const n = from.length;
  const mean = (ps: readonly (readonly [number, number])[]) => [
    ps.reduce((s, p) => s + p[0], 0) / n,
    ps.reduce((s, p) => s + p[1], 0) / n,
  ];
  const [fx, fy] = mean(from);
  const [tx, ty] = mean(to);
  let dot = 0;
  let cross = 0;
  let norm = 0;
  for (let i = 0; i < n; i++) {
    const [x, y] = [from[i][0] - fx, from[i][1] - fy];
    const [u, v] = [to[i][0] - tx, to[i][1] - ty];
    dot += x * u + y * v;
    cross += x * v - y * u;
    norm += x * x + y * y;
  }
  const a = dot / norm;
  const b = cross / norm;
  return [a, b, tx - a * fx + b * fy, ty - b * fx - a * fy] as const;
}

/**
 * The face chip of `size` pixels aligned on `template` (given for a chip of `templateSize`), as a
 * float32 [1, size, size, 3] RGB tensor of 0–255 values. Rendered at an integer multiple of the
 * size near the face's scale (at most 4×) and average-pooled down.
 */
export function alignedChip(
  tf: typeof Tf,
  image: Tf.Tensor3D,
  mesh: DetectedFace['mesh'],
  size: number,
  template: readonly (readonly [number, number])[] = ARCFACE_TEMPLATE_112,
  templateSize = 112,
): Tf.Tensor4D | undefined {
  const points = fivePoints(mesh);
  if (!points) return undefined;
  const chipPoints = template.map(
    ([x, y]) => [(x * size) / templateSize, (y * size) / templateSize] as const,
  );
  // Chip → image: tf.image.transform maps each output pixel to the input point it samples.
  return similarityChip(tf, image, similarity(chipPoints, points), size);
}

/**
 * The chip of `size` pixels aligned by the least-squares similarity taking the mesh's `landmarks`
 * onto `template` (chip pixels, in the same order); undefined when the mesh lacks one of them.
 */
export function meshChip(
  tf: typeof Tf,
  image: Tf.Tensor3D,
  mesh: DetectedFace['mesh'],
  landmarks: readonly number[],
  template: readonly (readonly [number, number])[],
  size: number,
): Tf.Tensor4D | undefined {
  const points = landmarks.map((i) => mesh[i]);
  if (points.some((p) => !p)) return undefined;
  return similarityChip(
    tf,
    image,
    similarity(
      template,
      points.map((p) => [p[0], p[1]] as const),
    ),
    size,
  );
}

/**
 * The chip of `size` pixels whose point (x, y) is the image's (a·x − b·y + tx, b·x + a·y + ty),
 * rendered at an integer multiple of the size near the scale (at most 4×, `supersample` off: 1×)
 * and average-pooled down.
 */
export function similarityChip(
  tf: typeof Tf,
  image: Tf.Tensor3D,
  [a, b, tx, ty]: readonly [number, number, number, number],
  size: number,
  supersample = true,
): Tf.Tensor4D | undefined {
  const scale = Math.hypot(a, b);
  if (!(scale > 0)) return undefined;
  const factor = supersample ? Math.min(4, Math.max(1, Math.round(scale))) : 1;
  const k = 1 / factor;
  // Output pixel (u, v) of the supersampled chip is chip point ((u + 0.5)·k − 0.5, …).
  const shift = 0.5 * k - 0.5;
  const transform = [
    a * k,
    -b * k,
    a * shift - b * shift + tx,
    b * k,
    a * k,
    b * shift + a * shift + ty,
    0,
    0,
  ];
  return tf.tidy(() => {
    const batch = tf.expandDims(tf.cast(image, 'float32'), 0) as Tf.Tensor4D;
    const big = tf.image.transform(batch, tf.tensor2d([transform]), 'bilinear', 'nearest', 0, [
      size * factor,
      size * factor,
    ]);
    return factor === 1 ? big : (tf.avgPool(big, factor, factor, 'valid') as Tf.Tensor4D);
  });
}
