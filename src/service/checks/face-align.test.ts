import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DetectedFace } from '@/shared/face-rules';
import { alignedChip, ARCFACE_TEMPLATE_112, fivePoints, similarity } from './face-align';

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
    // A bright 24×24 square centred on where the nose tip lands; the rest dark.
    const [nx, ny] = place(ARCFACE_TEMPLATE_112[2]);
    const [w, h] = [900, 900];
    const pixels = new Int32Array(w * h * 3);
    for (let y = Math.round(ny) - 12; y < Math.round(ny) + 12; y++)
      for (let x = Math.round(nx) - 12; x < Math.round(nx) + 12; x++)
        pixels.fill(255, (y * w + x) * 3, (y * w + x) * 3 + 3);
    const image = tf.tensor3d(pixels, [h, w, 3], 'int32');
    const chip = alignedChip(tf, image, meshAt(ARCFACE_TEMPLATE_112.map(place)), 112)!;
    expect(chip.shape).toEqual([1, 112, 112, 3]);
    const values = await chip.data();
    const at = (x: number, y: number) => values[(Math.round(y) * 112 + Math.round(x)) * 3];
    const [tx, ty] = ARCFACE_TEMPLATE_112[2];
    // The square (6 chip pixels across at a quarter of the size) sits on the template's nose tip.
    expect(at(tx, ty)).toBeGreaterThan(250);
    expect(at(tx + 6, ty)).toBeLessThan(5);
    expect(at(tx, ty - 6)).toBeLessThan(5);
    image.dispose();
    chip.dispose();
  });
});
