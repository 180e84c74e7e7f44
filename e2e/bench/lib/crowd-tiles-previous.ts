// The crowd tiles' detector pass as faces.ts ran it until 2026-11-26 (blazeface on four tiles of
// 60 % of each side, each squeezed to 256 × 256), kept so that `npm run bench:face-cost` measures
// it beside the single crowd pass (faces.ts crowdCandidates) that replaced it.
import type * as Tf from '@tensorflow/tfjs-core';
import type { HumanFace } from '@/checks/face/node/faces';
import { FACE_MAX_DETECTED, FACE_MIN_CONFIDENCE } from '@/checks/face/face-rules';

export interface DetectorModel {
  inputs: { shape?: number[] }[];
  execute(input: Tf.Tensor): Tf.Tensor | Tf.Tensor[];
}

/** Share of each side a crowd tile covers: 2 × 2 tiles overlapping by a fifth. */
const CROWD_TILE_SHARE = 0.6;

/** Human's defaults for its blazeface detector (its config.ts; humanConfig leaves them as they are). */
const DETECTOR_IOU_THRESHOLD = 0.1;
const DETECTOR_BOX_SCALE = 1.4;

/** Blazeface's anchor centres at 256 px (Human's facemeshutil generateAnchors): 16 × 16 × 2, then 8 × 8 × 6. */
function blazefaceAnchors(size: number) {
  const anchors: [number, number][] = [];
  for (const [stride, count] of [
    [size / 16, 2],
    [size / 8, 6],
  ]) {
    const cells = Math.floor((size + stride - 1) / stride);
    for (let y = 0; y < cells; y++)
      for (let x = 0; x < cells; x++)
        for (let n = 0; n < count; n++) anchors.push([stride * (x + 0.5), stride * (y + 0.5)]);
  }
  return anchors;
}

/**
 * The detector-only reading of a crowd tile, as Human's `detect` with the mesh off returns it
 * (its blazeface.ts getBoxes and facemesh.ts predict: anchors, non-max suppression, the box
 * scaled to the tile, enlarged by 1.4, squared and clamped, the score rounded to 0.01), from the
 * tile already resized to the detector's 256 × 256. Calling the model directly spares what
 * `detect` does to the tile first: slicing it out of the image at full size, casting and
 * resizing it (~45 of the ~75 ms a tile cost on the dev set's selfies).
 */
async function detectorFaces(
  tf: typeof Tf,
  detector: DetectorModel,
  resized: Tf.Tensor4D,
  tileWidth: number,
  tileHeight: number,
): Promise<HumanFace[]> {
  const size = resized.shape[1];
  const outputs = tf.tidy(() => {
    const input = tf.sub(tf.div(resized, 127.5), 1);
    // Four outputs (Human's "pinto" case): scores and boxes of the 512 fine anchors and the 384 coarse ones.
    const res = (detector.execute(input) as Tf.Tensor[]).slice().sort((a, b) => a.size - b.size);
    const fine = tf.concat([res[1], res[3]], 2);
    const coarse = tf.concat([res[0], res[2]], 2);
    return tf.squeeze(tf.concat([fine, coarse], 1), [0]) as Tf.Tensor2D;
  });
  const rows = (await outputs.array()) as number[][];
  outputs.dispose();
  const anchors = blazefaceAnchors(size);
  const corners = rows.map((r, i) => {
    const [cx, cy] = [r[1] + anchors[i][0], r[2] + anchors[i][1]];
    return [cx - r[3] / 2, cy - r[4] / 2, cx + r[3] / 2, cy + r[4] / 2];
  });
  const scores = rows.map((r) => 1 / (1 + Math.exp(-r[0])));
  const boxesT = tf.tensor2d(corners);
  const scoresT = tf.tensor1d(scores);
  const kept = await tf.image.nonMaxSuppressionAsync(
    boxesT,
    scoresT,
    FACE_MAX_DETECTED,
    DETECTOR_IOU_THRESHOLD,
    FACE_MIN_CONFIDENCE,
  );
  const indices = Array.from(await kept.data());
  tf.dispose([boxesT, scoresT, kept]);
  const [fx, fy] = [tileWidth / size, tileHeight / size];
  const faces: HumanFace[] = [];
  for (const i of indices) {
    const score = Math.round(100 * scores[i]) / 100;
    if (scores[i] <= FACE_MIN_CONFIDENCE || score <= FACE_MIN_CONFIDENCE) continue;
    const [x0, y0, x1, y1] = [corners[i][0] * fx, corners[i][1] * fy, corners[i][2] * fx, corners[i][3] * fy];
    const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
    const half = (Math.max(x1 - x0, y1 - y0) * DETECTOR_BOX_SCALE) / 2;
    const [sx, sy, ex, ey] = [
      Math.round(cx - half),
      Math.round(cy - half),
      Math.round(cx + half),
      Math.round(cy + half),
    ];
    if (ex - sx <= 0) continue;
    const box: HumanFace['box'] = [
      Math.trunc(Math.max(0, sx)),
      Math.trunc(Math.max(0, sy)),
      Math.trunc(Math.min(tileWidth, ex) - Math.max(0, sx)),
      Math.trunc(Math.min(tileHeight, ey) - Math.max(0, sy)),
    ];
    faces.push({ box, boxScore: score, score, mesh: [] });
  }
  return faces;
}

/** The four crowd tiles of an image: 2 × 2, each CROWD_TILE_SHARE of a side, overlapping. */
function crowdTiles(width: number, height: number) {
  const tileWidth = Math.ceil(width * CROWD_TILE_SHARE);
  const tileHeight = Math.ceil(height * CROWD_TILE_SHARE);
  return [0, width - tileWidth].flatMap((left) =>
    [0, height - tileHeight].map((top) => ({ left, top, width: tileWidth, height: tileHeight })),
  );
}

/**
 * The detector-only reading of each crowd tile (boxes in the tile's pixels), what Human's `detect`
 * with the mesh off returns for the tile. The four tiles are resized to the detector's size in one
 * pass over the image, sampled where Human's resizeBilinear of each tile samples (pixel
 * y · tileHeight / size of the tile, no corner alignment).
 */
export async function tileCandidates(
  tf: typeof Tf,
  detector: DetectorModel,
  image: Tf.Tensor3D,
  width: number,
  height: number,
): Promise<HumanFace[][]> {
  const tiles = crowdTiles(width, height);
  const size = detector.inputs[0].shape?.[1] ?? 256;
  const resized = tf.tidy(() =>
    tf.image.cropAndResize(
      tf.expandDims(image, 0) as Tf.Tensor4D,
      tiles.map((t) => [
        t.top / (height - 1),
        t.left / (width - 1),
        (t.top + (t.height * (size - 1)) / size) / (height - 1),
        (t.left + (t.width * (size - 1)) / size) / (width - 1),
      ]),
      tiles.map(() => 0),
      [size, size],
    ),
  );
  try {
    const found: HumanFace[][] = [];
    for (const [index, tile] of tiles.entries()) {
      const one = tf.slice(resized, [index, 0, 0, 0], [1, size, size, 3]);
      try {
        found.push(await detectorFaces(tf, detector, one, tile.width, tile.height));
      } finally {
        one.dispose();
      }
    }
    return found;
  } finally {
    resized.dispose();
  }
}
