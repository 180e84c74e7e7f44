import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DetectedFace } from '@/checks/face/face-rules';
import { alignedChip, ARCFACE_TEMPLATE_112, fivePoints, meshChip, similarity } from './face-align';
import { CHIP_LANDMARKS, DLIB_CHIP_TEMPLATE } from './face-recognition';

/** A mesh whose five points (as fivePoints reads them) are the given ones. */
function meshAt(points: readonly (readonly [number, number])[]): DetectedFace['mesh'] {
  const mesh: DetectedFace['mesh'] = Array.from({ length: 468 }, () => [0, 0, 0] as [number, number, number]);
  const set = (ids: number[], [x, y]: readonly [number, number]) => {
    for (const i of ids) mesh[i] = [x, y, 0];
  };
  set([33, 133, 159, 145, 160, 144, 158, 153], points[0]);
  set([362, 263, 386, 374, 385, 380, 387, 373], points[1]);
  set([4], points[2]);
  set([61], points[3]);
  set([291], points[4]);
  return mesh;
}

// A face 4× the template's size, turned by 20° and moved: what the chip must undo.
const [scale, angle, dx, dy] = [4, (20 * Math.PI) / 180, 310, 120];
const place = ([x, y]: readonly [number, number]) =>
  [
    scale * (Math.cos(angle) * x - Math.sin(angle) * y) + dx,
    scale * (Math.sin(angle) * x + Math.cos(angle) * y) + dy,
  ] as const;

/**
 * A dark 900×900 image with a bright square of `side` pixels where the template's `point` lands
 * once placed, cut by `cut` into a chip of `size`: the chip must show the square on the template's
 * point (a quarter of its side across) and dark beside it.
 */
async function expectSquareOnPoint(
  point: readonly [number, number],
  side: number,
  size: number,
  cut: (image: tf.Tensor3D) => tf.Tensor4D,
) {
  const [nx, ny] = place(point);
  const [w, h] = [900, 900];
  const pixels = new Int32Array(w * h * 3);
  for (let y = Math.round(ny) - side / 2; y < Math.round(ny) + side / 2; y++)
    for (let x = Math.round(nx) - side / 2; x < Math.round(nx) + side / 2; x++)
      pixels.fill(255, (y * w + x) * 3, (y * w + x) * 3 + 3);
  const image = tf.tensor3d(pixels, [h, w, 3], 'int32');
  const chip = cut(image);
  expect(chip.shape).toEqual([1, size, size, 3]);
  const values = await chip.data();
  const at = (x: number, y: number) => values[(Math.round(y) * size + Math.round(x)) * 3];
  const [tx, ty] = point;
  const away = side / scale + 0.5;
  expect(at(tx, ty)).toBeGreaterThan(250);
  expect(at(tx + away, ty)).toBeLessThan(5);
  expect(at(tx, ty - away)).toBeLessThan(5);
  image.dispose();
  chip.dispose();
}

beforeAll(async () => {
  await tf.setBackend('cpu');
});

describe('similarity', () => {
  it('recovers the scale, rotation and shift that moved the template', () => {
    const [a, b, tx, ty] = similarity(ARCFACE_TEMPLATE_112, ARCFACE_TEMPLATE_112.map(place));
    expect(a).toBeCloseTo(scale * Math.cos(angle), 6);
    expect(b).toBeCloseTo(scale * Math.sin(angle), 6);
    expect(tx).toBeCloseTo(dx, 6);
    expect(ty).toBeCloseTo(dy, 6);
  });
});

describe('fivePoints', () => {
  it('reads eye centres, nose tip and mouth corners in the template order', () => {
    const points = fivePoints(meshAt(ARCFACE_TEMPLATE_112))!;
    points.forEach(([x, y], i) => {
      expect(x).toBeCloseTo(ARCFACE_TEMPLATE_112[i][0], 9);
      expect(y).toBeCloseTo(ARCFACE_TEMPLATE_112[i][1], 9);
    });
  });

  it('is undefined for a mesh without those landmarks', () => {
    expect(fivePoints([[1, 2, 0]])).toBeUndefined();
  });
});

describe('alignedChip', () => {
  it('brings a turned, enlarged face back onto the template', async () => {
    // The nose tip, with a 24 px square (6 chip pixels).
    await expectSquareOnPoint(ARCFACE_TEMPLATE_112[2], 24, 112, (image) =>
      alignedChip(tf, image, meshAt(ARCFACE_TEMPLATE_112.map(place)), 112)!,
    );
  });
});

describe('meshChip', () => {
  it('brings the chosen mesh landmarks of a turned, enlarged face back onto the template', async () => {
    const mesh: DetectedFace['mesh'] = Array.from(
      { length: 468 },
      () => [0, 0, 0] as [number, number, number],
    );
    CHIP_LANDMARKS.forEach((id, i) => {
      const [x, y] = place(DLIB_CHIP_TEMPLATE[i]);
      mesh[id] = [x, y, 0];
    });
    // The nose tip (dlib's point 30, the template's fourth), with a 20 px square (5 chip pixels).
    await expectSquareOnPoint(DLIB_CHIP_TEMPLATE[3], 20, 150, (image) =>
      meshChip(tf, image, mesh, CHIP_LANDMARKS, DLIB_CHIP_TEMPLATE, 150)!,
    );
  });

  it('is undefined for a mesh without those landmarks', () => {
    const image = tf.zeros([10, 10, 3], 'int32') as tf.Tensor3D;
    expect(meshChip(tf, image, [[1, 2, 0]], CHIP_LANDMARKS, DLIB_CHIP_TEMPLATE, 150)).toBeUndefined();
    image.dispose();
  });
});
