import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { samplePath } from '../../../e2e/fixtures/samples';
import type * as Tf from '@tensorflow/tfjs-core';
import { checkDocumentPhoto, checkSelfiePhoto } from './check-input';
import { decodeForFaces, loadFaceModels, tileCandidates, type DetectorModel, type HumanFace } from './faces';

// Issue 21, item 7: a crowd must not pass as one face. The detector reads the whole image at
// 256 px, where each face of a 40-face mosaic is ~32 px: it found one.
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

  it("reads the tiles with the detector as Human's detect with the mesh off does: same boxes and scores", async () => {
    const { human, tf: core } = await loadFaceModels();
    const tf = core as unknown as typeof Tf;
    // Human's detect on any tensor, and its models (faces.ts keeps its own narrower view of them).
    const runtime = human as unknown as {
      detect(input: Tf.Tensor, config: unknown): Promise<{ face: HumanFace[] }>;
      models: { models: Record<string, unknown> };
    };
    const detectorOnly = { face: { mesh: { enabled: false }, iris: { enabled: false } } };
    const crowd = await mosaic(8, 5, 240, 300);
    let found = 0;
    for (const path of [crowd.path, samplePath('selfie.jpg'), samplePath('selfie-multiple-faces.jpg')]) {
      const { data, info } = await decodeForFaces(path);
      const { width, height } = info;
      const image = tf.tensor3d(Int32Array.from(data), [height, width, 3], 'int32');
      const direct = await tileCandidates(
        tf,
        runtime.models.models.blazeface as DetectorModel,
        image,
        width,
        height,
      );
      const [tileWidth, tileHeight] = [Math.ceil(width * 0.6), Math.ceil(height * 0.6)];
      const corners = [0, width - tileWidth].flatMap((left) =>
        [0, height - tileHeight].map((top) => [left, top]),
      );
      for (const [index, [left, top]] of corners.entries()) {
        const tile = tf.slice(image, [top, left, 0], [tileHeight, tileWidth, 3]);
        const viaHuman = (await runtime.detect(tile, detectorOnly)).face;
        tile.dispose();
        const read = (faces: HumanFace[]) => faces.map((f) => ({ box: f.box, score: f.boxScore }));
        expect(read(direct[index]), `${path} tile ${index}`).toEqual(read(viaHuman));
        found += viaHuman.length;
      }
      image.dispose();
    }
    // The comparison is about faces, not empty lists: the mosaic's tiles hold many.
    expect(found).toBeGreaterThan(10);
  }, 120_000);
});
