import type * as Tf from '@tensorflow/tfjs-core';
import { describe, expect, it } from 'vitest';
import type { DetectedFace } from '@/checks/face/face-rules';
import { loadFaceModels } from './faces';
import {
  CHIP_ALIGNMENT,
  DLIB_33_ALIGNMENT,
  FACE_MATCH_VIEWS,
  recognitionDescriptor,
  type DescriptorViews,
} from './face-recognition';

describe('CHIP_ALIGNMENT', () => {
  it("keeps dlib's eye, nose and mouth-corner points and leaves out the lips between the corners", () => {
    // Facemesh: mouth corners 61 and 291; the outer upper lip 39, 37, 0, 267, 269 and the inner
    // upper lip 78, 82, 13, 312, 308 move with the expression.
    expect(CHIP_ALIGNMENT.landmarks).toHaveLength(23);
    expect(CHIP_ALIGNMENT.landmarks).toEqual(expect.arrayContaining([33, 133, 362, 263, 4, 61, 291]));
    for (const lip of [39, 37, 0, 267, 269, 78, 82, 13, 312, 308])
      expect(CHIP_ALIGNMENT.landmarks).not.toContain(lip);
    // The same places in the chip as dlib's 33-point alignment gives those points.
    CHIP_ALIGNMENT.landmarks.forEach((id, i) =>
      expect(CHIP_ALIGNMENT.template[i]).toEqual(
        DLIB_33_ALIGNMENT.template[DLIB_33_ALIGNMENT.landmarks.indexOf(id)],
      ),
    );
  });
});

describe('recognitionDescriptor', () => {
  it("averages the face match's views: the mean of each view's own descriptor", async () => {
    const { tf: core, net } = await loadFaceModels();
    const tf = core as unknown as typeof Tf;
    // A generated 400 px image (smooth stripes and rings, no real face) with the alignment's
    // landmarks placed at twice the chip's scale, moved and turned by 10°.
    const [w, h] = [400, 400];
    const pixels = new Int32Array(w * h * 3);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const o = (y * w + x) * 3;
        pixels[o] = Math.round(127 + 120 * Math.sin(x / 9) * Math.cos(y / 13));
        pixels[o + 1] = Math.round(127 + 120 * Math.sin(Math.hypot(x - 200, y - 190) / 7));
        pixels[o + 2] = (x + 2 * y) % 256;
      }
    const image = tf.tensor3d(pixels, [h, w, 3], 'int32');
    const turn = (10 * Math.PI) / 180;
    const mesh: DetectedFace['mesh'] = Array.from({ length: 478 }, () => [0, 0, 0]);
    CHIP_ALIGNMENT.landmarks.forEach((id, i) => {
      const [x, y] = CHIP_ALIGNMENT.template[i];
      mesh[id] = [
        2 * (Math.cos(turn) * x - Math.sin(turn) * y) + 70,
        2 * (Math.sin(turn) * x + Math.cos(turn) * y) + 40,
        0,
      ];
    });
    try {
      const descriptorOf = (views: DescriptorViews) => recognitionDescriptor(net, image, mesh, views);
      const all = await descriptorOf(FACE_MATCH_VIEWS);
      const singles = await Promise.all([
        ...(FACE_MATCH_VIEWS.turns ?? []).map((t) => descriptorOf({ turns: [t] })),
        ...(FACE_MATCH_VIEWS.scales ?? []).map((s) => descriptorOf({ turns: [], scales: [s] })),
      ]);
      expect(singles).toHaveLength(4);
      expect(all).toHaveLength(128);
      all!.forEach((v, k) =>
        expect(v).toBeCloseTo(singles.reduce((sum, d) => sum + d![k], 0) / singles.length, 4),
      );
      // The views differ (else averaging them would buy nothing).
      expect(singles[0]).not.toEqual(singles[3]);
    } finally {
      image.dispose();
    }
  });
});
