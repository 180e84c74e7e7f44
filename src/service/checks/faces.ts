import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import {
  FACE_INPUT_LONG_SIDE,
  FACE_MAX_DETECTED,
  FACE_MIN_CONFIDENCE,
  FACE_USE_MODELS,
  faceUseConfig,
  humanConfig,
  judgeFaces,
  type FaceUse,
  type DetectedFace,
  type FaceJudgement,
} from '@/shared/face-rules';
import type * as Tf from '@tensorflow/tfjs-core';
import { MAX_IMAGE_PIXELS } from '@/shared/limits';
import {
  FACE_MATCH_VIEWS,
  loadRecognitionNet,
  recognitionDescriptor,
  type RecognitionNet,
} from './face-recognition';
import type { FacePixels } from './image';

/**
 * Face detection and eye openness with @vladmandic/human on TensorFlow.js's wasm backend, and the
 * face match's descriptor (face-recognition.ts) on the same runtime: models and wasm are read from
 * node_modules (nothing is fetched), and the rules that judge the detections are the browser's
 * (`src/shared/face-rules.ts`).
 */

const require = createRequire(import.meta.url);

// Minimal shapes of the parts of tfjs and Human used here (their own typings pull in DOM types).
interface Tensor {
  dispose(): void;
}
interface TfCore {
  tensor3d(values: Int32Array, shape: [number, number, number], dtype: 'int32'): Tensor;
  slice(x: Tensor, begin: number[], size: number[]): Tensor;
  io: { registerLoadRouter(router: (url: string | string[]) => unknown): void };
}
export interface HumanFace {
  box: [number, number, number, number];
  boxScore?: number;
  score: number;
  mesh: [number, number, number?][];
}
export interface DetectorModel {
  inputs: { shape?: number[] }[];
  execute(input: Tf.Tensor): Tf.Tensor | Tf.Tensor[];
}
interface HumanInstance {
  load(): Promise<void>;
  detect(input: Tensor, config?: unknown): Promise<{ face: HumanFace[]; error?: string | null }>;
  /** The loaded graph models by name; the crowd tiles run `blazeface` directly (tileCandidates). */
  models: { models: Record<string, unknown> };
}

/** Where the Human models live in node_modules; only the ones named in FACE_MODELS are read. */
export const humanModelsDir = () => join(dirname(require.resolve('@vladmandic/human')), '..', 'models');
export const wasmDir = () =>
  dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));

interface ModelJson {
  modelTopology: unknown;
  weightsManifest: { paths: string[]; weights: unknown[] }[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: unknown;
  userDefinedMetadata?: unknown;
}

/** tfjs has no file:// loader without tfjs-node: this reads a graph model from disk. */
export function fileRouter(url: string | string[]) {
  if (typeof url !== 'string' || !url.startsWith('file://')) return null;
  const path = url.slice('file://'.length);
  return {
    load: async () => {
      const json = JSON.parse(await readFile(path, 'utf8')) as ModelJson;
      const parts = await Promise.all(
        json.weightsManifest.flatMap((g) => g.paths.map((p) => readFile(join(dirname(path), p)))),
      );
      const weights = Buffer.concat(parts);
      return {
        modelTopology: json.modelTopology,
        weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
      };
    },
  };
}

let loading: Promise<{ human: HumanInstance; tf: TfCore; net: RecognitionNet }> | undefined;

/** Loads the runtime and the models once (about 1 s); later calls reuse them. */
export function loadFaceModels() {
  loading ??= (async () => {
    const tf = require('@tensorflow/tfjs-core') as TfCore;
    tf.io.registerLoadRouter(fileRouter);
    // The package's export map has no "./dist/…" keys, so the wasm build is found beside the main one.
    const humanPath = join(dirname(require.resolve('@vladmandic/human')), 'human.node-wasm.js');
    const { Human } = require(humanPath) as { Human: new (config: unknown) => HumanInstance };
    const human = new Human(
      humanConfig({ modelBasePath: `file://${humanModelsDir()}/`, wasmPath: `${wasmDir()}/` }),
    );
    await human.load();
    // After Human's load: it picks and initialises the wasm backend the network's ops run on.
    const net = await loadRecognitionNet(tf as unknown as typeof Tf);
    return { human, tf, net };
  })();
  return loading;
}

export interface FaceReading extends FaceJudgement {
  /** Size of the analysed (shrunk) image. */
  width: number;
  height: number;
}

// One detection at a time: the wasm backend runs on this thread anyway, and Human keeps state
// between calls.
let queue: Promise<unknown> = Promise.resolve();

/**
 * The image with a grey border of a quarter of its long side each way: what the face match's
 * detection retries on when it found no face. A tight crop of a face (a portrait cut from a
 * document, ~150 px) leaves the detector no margin around the head and it finds nothing.
 */
export function withBorder(tf: typeof Tf, image: Tf.Tensor3D): Tf.Tensor3D {
  const border = Math.round(Math.max(image.shape[0], image.shape[1]) / 4);
  return tf.pad(
    image,
    [
      [border, border],
      [border, border],
      [0, 0],
    ],
    128,
  );
}

/**
 * Detects faces in raw RGB or RGBA pixels, with the models `use` needs (face-rules.ts,
 * FACE_USE_MODELS); `crowd` (a still photo) looks for small faces in tiles too (withCrowd). The tensor's int32 RGB values are written from the bytes in one pass (tfjs
 * would otherwise convert a byte array itself, after an RGB copy).
 */
export function detectFacesInPixels(
  pixels: FacePixels,
  use: FaceUse = 'selfie',
  options: { crowd?: boolean } = {},
): Promise<FaceReading> {
  const { data, width, height, channels } = pixels;
  const run = queue.then(async () => {
    const { human, tf, net } = await loadFaceModels();
    const values = new Int32Array(width * height * 3);
    for (let i = 0, o = 0; o < values.length; i += channels, o += 3) {
      values[o] = data[i];
      values[o + 1] = data[i + 1];
      values[o + 2] = data[i + 2];
    }
    let tensor = tf.tensor3d(values, [height, width, 3], 'int32');
    const judge = async (image: Tensor, imageWidth: number, imageHeight: number) => {
      const result = await human.detect(image, faceUseConfig(use));
      if (result.error) throw new Error(result.error);
      const detected: DetectedFace[] = result.face.map((f) => ({
        box: f.box,
        score: f.boxScore ?? f.score,
        mesh: f.mesh,
      }));
      return judgeFaces(detected, imageWidth, imageHeight);
    };
    try {
      let judgement = await judge(tensor, width, height);
      if (options.crowd && judgement.faces.length <= 1) {
        judgement = await withCrowd(judgement, { human, tf, tensor, values, width, height, use });
      }
      if (use === 'descriptor' && judgement.faces.length === 0) {
        // Only for the face match, and only after nothing was found (a tight crop: see withBorder).
        const padded = withBorder(tf as unknown as typeof Tf, tensor as unknown as Tf.Tensor3D);
        tensor.dispose();
        tensor = padded as unknown as Tensor;
        judgement = await judge(tensor, padded.shape[1], padded.shape[0]);
      }
      // The face match compares the largest face only: the others get no descriptor.
      const [largest] = judgement.faces;
      if (FACE_USE_MODELS[use].descriptor && largest) {
        const embedding = await recognitionDescriptor(
          net,
          tensor as unknown as Tf.Tensor3D,
          largest.mesh,
          FACE_MATCH_VIEWS,
        );
        if (embedding) largest.embedding = embedding;
      }
      // Without the iris model the lid landmarks do not tell open from closed: not a measure to record.
      if (!FACE_USE_MODELS[use].iris) delete judgement.eyeOpenness;
      return { ...judgement, width, height };
    } finally {
      tensor.dispose();
    }
  });
  queue = run.catch(() => undefined);
  return run;
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

/**
 * The detector reads the whole image at 256 px, so in a mosaic of 40 faces of 240 × 300 px on
 * 1920 × 1500 each face is ~32 px there and only one was found: a crowd passed as one face. When
 * the whole image shows at most one face, four overlapping tiles (each 60 % of a side, so each
 * face of up to a fifth of the image lies whole in one of them) are read too; a face found in a
 * tile counts when it is large enough for the whole image (FACE_MIN_SIDE_SHARE), lies clear of the
 * tile's inner edges (a face cut by the tile is read whole in another) and is not one already
 * counted (its centre in a counted face's box).
 */
async function withCrowd(
  judgement: FaceJudgement,
  at: {
    human: HumanInstance;
    tf: TfCore;
    tensor: Tensor;
    /** The tensor's int32 RGB values, row by row. */
    values: Int32Array;
    width: number;
    height: number;
    use: FaceUse;
  },
): Promise<FaceJudgement> {
  const { human, tensor, values, width, height, use } = at;
  const tf = at.tf as unknown as typeof Tf;
  const detector = human.models.models.blazeface as DetectorModel;
  const tileWidth = Math.ceil(width * CROWD_TILE_SHARE);
  const tileHeight = Math.ceil(height * CROWD_TILE_SHARE);
  const margin = Math.min(width, height) * 0.02;
  const faces = [...judgement.faces];
  const counted = (face: DetectedFace) => {
    const cx = face.box[0] + face.box[2] / 2;
    const cy = face.box[1] + face.box[3] / 2;
    return faces.some(
      (f) => cx >= f.box[0] && cx <= f.box[0] + f.box[2] && cy >= f.box[1] && cy <= f.box[1] + f.box[3],
    );
  };
  /** The faces of a tile's reading that count for the whole image and are not counted yet. */
  const newFaces = (result: { face: HumanFace[]; error?: string | null }, left: number, top: number) => {
    if (result.error) return [];
    const inside = result.face.filter(
      (f) =>
        (left === 0 || f.box[0] > margin) &&
        (top === 0 || f.box[1] > margin) &&
        (left + tileWidth === width || f.box[0] + f.box[2] < tileWidth - margin) &&
        (top + tileHeight === height || f.box[1] + f.box[3] < tileHeight - margin),
    );
    const placed: DetectedFace[] = inside.map((f) => ({
      box: [f.box[0] + left, f.box[1] + top, f.box[2], f.box[3]],
      score: f.boxScore ?? f.score,
      mesh: f.mesh.map(([x, y, z]) => [x + left, y + top, z]),
    }));
    return judgeFaces(placed, width, height).faces.filter((face) => !counted(face));
  };
  const candidates = await tileCandidates(tf, detector, tensor as unknown as Tf.Tensor3D, width, height);
  for (const [index, { left, top }] of crowdTiles(width, height).entries()) {
    // The detector alone first; the mesh, which drops boxes on a card's text, only runs where the
    // detector saw a face not yet counted: Human's full detect on the tile at full size.
    if (!newFaces({ face: candidates[index] }, left, top).length) continue;
    // The tile's rows copied from the pixel values: the same int32 tensor as tf.slice gives, in
    // ~1 ms, where the wasm backend's slice of a 3-d int32 tensor took 18–35 ms.
    const rows = new Int32Array(tileWidth * tileHeight * 3);
    for (let y = 0; y < tileHeight; y++) {
      const from = ((top + y) * width + left) * 3;
      rows.set(values.subarray(from, from + tileWidth * 3), y * tileWidth * 3);
    }
    const tile = tf.tensor3d(rows, [tileHeight, tileWidth, 3], 'int32');
    try {
      const result = await human.detect(tile as unknown as Tensor, faceUseConfig(use));
      if (result.error) continue;
      for (const face of newFaces(result, left, top)) faces.push(face);
    } finally {
      tile.dispose();
    }
  }
  if (faces.length === judgement.faces.length) return judgement;
  return { ...judgement, faces };
}

/** An image (a file or its bytes) as the face models take it: bounded, EXIF-rotated, sRGB, shrunk to FACE_INPUT_LONG_SIDE. */
export const decodeForFaces = (input: string | Buffer) =>
  sharp(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'truncated' })
    .rotate()
    .resize({
      width: FACE_INPUT_LONG_SIDE,
      height: FACE_INPUT_LONG_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });

/** Decodes an image file (bounded, EXIF-rotated, shrunk to FACE_INPUT_LONG_SIDE) and detects faces. */
export async function detectFacesInFile(
  path: string,
  use: FaceUse = 'selfie',
  options: { crowd?: boolean } = {},
): Promise<FaceReading> {
  const { data, info } = await decodeForFaces(path);
  return detectFacesInPixels(
    {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
      channels: 3,
    },
    use,
    options,
  );
}

/** A descriptor rounded for storage in the input's facts (4 decimals keep the similarity exact to 1e-4). */
export const storedDescriptor = (embedding: number[]) => embedding.map((v) => Math.round(v * 1e4) / 1e4);
