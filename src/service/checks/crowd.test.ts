import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { samplePath } from '../../../e2e/fixtures/samples';
import type * as Tf from '@tensorflow/tfjs-core';
import { checkDocumentPhoto } from './inputs/document-photo';
import { checkSelfiePhoto } from './inputs/selfie-photo';
import {
  crowdCandidates,
  crowdInputSize,
  decodeForFaces,
  detectFacesInPixels,
  loadFaceModels,
} from '@/checks/face/node/faces';

// Issue 21, item 7: a crowd must not pass as one face. The detector reads the whole image squeezed
// to 256 × 256, where each face of a 40-face mosaic is ~32 × 51 px: it found one.
const dir = mkdtempSync(join(tmpdir(), 'idv-crowd-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `cols` × `rows` copies of the selfie sample's face, each `width` × `height`, on a grey 1920 × 1500. */
async function mosaic(cols: number, rows: number, width: number, height: number) {
  const tile = await sharp(samplePath('selfie.jpg')).resize(width, height, { fit: 'cover' }).png().toBuffer();
  const tiles = Array.from({ length: cols * rows }, (_, i) => ({
    input: tile,
    left: (i % cols) * width,
    top: Math.floor(i / cols) * height,
  }));
  const path = join(dir, `crowd-${cols}x${rows}.jpg`);
  writeFileSync(
    path,
    await sharp({ create: { width: 1920, height: 1500, channels: 3, background: '#808080' } })
      .composite(tiles)
      .jpeg({ quality: 85 })
      .toBuffer(),
  );
  return { path, filename: 'crowd.jpg', size: statSync(path).size, format: 'jpeg' as const };
}

describe('a crowd of faces', () => {
  it('is refused as a selfie (multipleFaces) and as a passport front, whatever the faces’ size', async () => {
    for (const [cols, rows, width, height] of [
      [8, 5, 240, 300],
      [3, 3, 640, 500],
    ] as const) {
      const file = await mosaic(cols, rows, width, height);
      const selfie = await checkSelfiePhoto(file);
      expect(selfie.code, `${cols}×${rows}`).toBe('selfiePhoto.multipleFaces');
      expect(selfie.facts.faces).toBeGreaterThan(1);
      const document = await checkDocumentPhoto(file, {
        type: 'passport',
        country: 'GB',
        page: 'front',
        requires: [],
        faceRequired: true,
      });
      expect(document.code, `${cols}×${rows}`).toBe('documentPhoto.noDocument');
    }
  }, 120_000);

  it('leaves a one-face selfie as it was', async () => {
    const selfie = await checkSelfiePhoto({
      path: samplePath('selfie.jpg'),
      filename: 'selfie.jpg',
      size: statSync(samplePath('selfie.jpg')).size,
      format: 'jpeg',
    });
    expect(selfie.code).toBeNull();
    expect(selfie.facts.faces).toBe(1);
  }, 60_000);

  it("finds every face of the mosaic in one pass, and each face Human's whole-image detect counts", async () => {
    const { tf: core, crowd } = await loadFaceModels();
    const tf = core as unknown as typeof Tf;
    const centreIn = (box: number[], [x, y, w, h]: number[]) => {
      const [cx, cy] = [box[0] + box[2] / 2, box[1] + box[3] / 2];
      return cx >= x && cx <= x + w && cy >= y && cy <= y + h;
    };
    const crowdFile = await mosaic(8, 5, 240, 300);
    for (const path of [crowdFile.path, samplePath('selfie.jpg'), samplePath('selfie-multiple-faces.jpg')]) {
      const { data, info } = await decodeForFaces(path);
      const { width, height } = info;
      const image = tf.tensor3d(Int32Array.from(data), [height, width, 3], 'int32');
      const boxes = (await crowdCandidates(tf, crowd, image, width, height)).map((b) => b.box);
      image.dispose();
      const whole = await detectFacesInPixels(
        { data: new Uint8Array(data), width, height, channels: 3 },
        'count',
      );
      expect(whole.faces.length, path).toBeGreaterThan(0);
      for (const face of whole.faces)
        expect(
          boxes.some((box) => centreIn(box, face.box)),
          `${path} ${JSON.stringify(face.box)}`,
        ).toBe(true);
      if (path !== crowdFile.path) continue;
      // Each of the 40 faces (240 × 300 on 1920 × 1500, in the decode's pixels) holds a box's centre.
      const k = width / 1920;
      const cells = Array.from({ length: 40 }, (_, i) => [
        (i % 8) * 240 * k,
        Math.floor(i / 8) * 300 * k,
        240 * k,
        300 * k,
      ]);
      expect(cells.filter((cell) => boxes.some((box) => centreIn(box, cell))).length).toBe(40);
    }
  }, 120_000);

  it('reads a photo at 256 px on its short side, and a sliver of an image no larger than 1024 px long', () => {
    expect(crowdInputSize(1024, 768)).toEqual([352, 256]);
    expect(crowdInputSize(600, 800)).toEqual([256, 352]);
    expect(crowdInputSize(150, 150)).toEqual([256, 256]);
    // 600 × 150 000 px passes the size checks and is shrunk to 1024 px long: 4 × 1024.
    expect(crowdInputSize(4, 1024)).toEqual([32, 1024]);
    expect(crowdInputSize(1024, 200)).toEqual([1024, 192]);
  });
});
