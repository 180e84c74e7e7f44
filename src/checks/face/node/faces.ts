import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import {
  FACE_INPUT_LONG_SIDE,
  FACE_MIN_CONFIDENCE,
  FACE_MIN_SIDE_SHARE,
  FACE_MODELS,
  FACE_USE_MODELS,
  faceUseConfig,
  humanConfig,
  judgeFaces,
  type FaceUse,
  type DetectedFace,
  type FaceJudgement,
} from '@/checks/face/face-rules';
import { measureFaceCover } from '@/checks/face/face-cover';
import type * as Tf from '@tensorflow/tfjs-core';
import { MAX_IMAGE_PIXELS } from '@/shared/limits';
import {
  FACE_MATCH_VIEWS,
  loadRecognitionNet,
  recognitionDescriptor,
  type RecognitionNet,
} from './face-recognition';
import type { FacePixels } from '@/checks/image/node/image';

/**
 * Face detection and eye openness with @vladmandic/human on TensorFlow.js's wasm backend, and the
 * face match's descriptor (face-recognition.ts) on the same runtime: models and wasm are read from
 * node_modules (nothing is fetched), and the rules that judge the detections are the browser's
 * (`src/checks/face/face-rules.ts`).
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
interface HumanInstance {
  load(): Promise<void>;
  detect(input: Tensor, config?: unknown): Promise<{ face: HumanFace[]; error?: string | null }>;
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

let loading:
  Promise<{ human: HumanInstance; tf: TfCore; net: RecognitionNet; crowd: CrowdDetector }> | undefined;

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
    return { human, tf, net, crowd: await loadCrowdDetector() };
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
 * FACE_USE_MODELS); `crowd` (a still photo) looks for small faces too (withCrowd). The tensor's
 * int32 RGB values are written from the bytes in one pass (tfjs would otherwise convert a byte
 * array itself, after an RGB copy).
 */
export function detectFacesInPixels(
  pixels: FacePixels,
  use: FaceUse = 'selfie',
  options: { crowd?: boolean } = {},
): Promise<FaceReading> {
  const { data, width, height, channels } = pixels;
  const run = queue.then(async () => {
    const { human, tf, net, crowd } = await loadFaceModels();
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
        judgement = await withCrowd(judgement, { human, tf, crowd, tensor, values, width, height });
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
      // A selfie's face, behind lenses or a mask: from the same RGB values the tensor was made of.
      if (use === 'selfie' && largest) {
        const cover = measureFaceCover({ data: values, width, height, channels: 3 }, largest.mesh);
        if (cover) judgement = { ...judgement, cover };
      }
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

/**
 * Short side of the crowd pass's input, the image resized without distortion. A face that counts
 * (FACE_MIN_SIDE_SHARE of the short side) is then ≥ 25.6 px there. Blazeface fed an undistorted
 * image found every one of the dev set's 42 good selfies' faces scaled down to a 22 px mesh box
 * (score ≥ 0.63; ≥ 0.73 at 26 px), and every face of the 1920 × 1500 mosaic of 40 (0.53–0.77).
 */
export const CROWD_SHORT_SIDE = 256;
/**
 * Longest side of the crowd pass's input: an image longer than 4 : 1 (a sliver of 1024 × 4 px
 * passes the size checks) is read smaller than CROWD_SHORT_SIDE rather than at up to 256 × 65536,
 * so the pass never costs more than four times the detector's own 256 × 256.
 */
const CROWD_MAX_LONG_SIDE = 4 * CROWD_SHORT_SIDE;
/**
 * A crowd-pass box (enlarged by 1.4 and squared, as Human does) is a candidate from this share of
 * the least face that counts: the face mesh's box, which judgeFaces measures, was 0.97–1.83 × the
 * crowd pass's box of the same face on the dev set's 59 faces (median 1.16).
 */
const CROWD_CANDIDATE_SHARE = 0.75;
/** Most boxes the crowd pass keeps: the mosaic shows 40 faces. */
const CROWD_MAX_BOXES = 64;

/** Blazeface with a free input size, and the nodes of its four heads (scores and boxes of its two grids). */
export interface CrowdDetector {
  model: { execute(input: Tf.Tensor, outputs: string[]): Tf.Tensor[] };
  outputs: string[];
}

/**
 * Blazeface read a second time (0.5 MB) for the crowd pass: Human's copy declares a 1 × 256 × 256
 * input. The network is convolutional; only that declaration and the four reshapes to its 896
 * anchors of a 256 px input are tied to the size, so this copy's input is declared free and its
 * heads are read before the reshapes.
 */
async function loadCrowdDetector(): Promise<CrowdDetector> {
  const converter = require('@tensorflow/tfjs-converter') as {
    loadGraphModel(handler: { load(): Promise<unknown> }): Promise<CrowdDetector['model']>;
  };
  const artifacts = await fileRouter(
    `file://${join(humanModelsDir(), `${FACE_MODELS.detector}.json`)}`,
  )!.load();
  const nodes = (artifacts.modelTopology as { node: GraphNode[] }).node;
  const input = nodes.find((n) => n.op === 'Placeholder')?.attr?.shape;
  if (!input) throw new Error('the face detector declares no input');
  input.shape.dim = [-1, -1, -1, 3].map((size) => ({ size: String(size) }));
  const outputs = nodes.filter((n) => n.op === 'Reshape').map((n) => n.input[0]);
  return { model: await converter.loadGraphModel({ load: () => Promise.resolve(artifacts) }), outputs };
}

interface GraphNode {
  op: string;
  input: string[];
  attr?: { shape?: { shape: { dim: { size: string }[] } } };
}

/** A box of the crowd pass in the image's pixels (x, y, width, height), and its score. */
export interface CrowdBox {
  box: [number, number, number, number];
  score: number;
}

/** The crowd pass's input size for an image: its sides scaled alike and rounded to the network's 32 px grid. */
export function crowdInputSize(width: number, height: number): [number, number] {
  const scale = Math.min(
    CROWD_SHORT_SIDE / Math.min(width, height),
    CROWD_MAX_LONG_SIDE / Math.max(width, height),
  );
  const grid = (side: number) => Math.max(32, Math.round((side * scale) / 32) * 32);
  return [grid(width), grid(height)];
}

/**
 * The crowd pass: blazeface once on the whole image resized without distortion to
 * CROWD_SHORT_SIDE on its short side (crowdInputSize), its boxes decoded as Human decodes them
 * (anchors at the grid's cell centres, non-max suppression, the box enlarged by 1.4, squared and
 * clamped to the image), in the image's pixels. Human's own pass squeezes any photo into 256 ×
 * 256, where the mosaic's faces are 32 × 51 px: it found one of 40.
 */
export async function crowdCandidates(
  tf: typeof Tf,
  crowd: CrowdDetector,
  image: Tf.Tensor3D,
  width: number,
  height: number,
): Promise<CrowdBox[]> {
  const [w, h] = crowdInputSize(width, height);
  const heads = tf.tidy(() => {
    const resized = tf.image.resizeBilinear(tf.cast(tf.expandDims(image, 0), 'float32') as Tf.Tensor4D, [
      h,
      w,
    ]);
    return crowd.model.execute(tf.sub(tf.div(resized, 127.5), 1), crowd.outputs);
  });
  const values = await Promise.all(heads.map((t) => t.data()));
  const shapes = heads.map((t) => t.shape);
  tf.dispose(heads);
  const corners: number[][] = [];
  const scores: number[] = [];
  for (const [s, [, rows, cols, anchors]] of shapes.entries()) {
    // A scores head (one channel per anchor) and the boxes head of its grid (16 per anchor: the
    // box's centre and size, then six key points).
    const b = shapes.findIndex((shape) => shape[1] === rows && shape[3] === anchors * 16);
    if (b < 0) continue;
    const stride = h / rows;
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        for (let a = 0; a < anchors; a++) {
          const i = (y * cols + x) * anchors + a;
          const [dx, dy, bw, bh] = values[b].subarray(i * 16, i * 16 + 4);
          const [cx, cy] = [stride * (x + 0.5) + dx, stride * (y + 0.5) + dy];
          corners.push([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2]);
          scores.push(1 / (1 + Math.exp(-values[s][i])));
        }
      }
    }
  }
  const boxesT = tf.tensor2d(corners);
  const scoresT = tf.tensor1d(scores);
  const kept = await tf.image.nonMaxSuppressionAsync(
    boxesT,
    scoresT,
    CROWD_MAX_BOXES,
    DETECTOR_IOU_THRESHOLD,
    FACE_MIN_CONFIDENCE,
  );
  const indices = Array.from(await kept.data());
  tf.dispose([boxesT, scoresT, kept]);
  const [fx, fy] = [width / w, height / h];
  return indices.map((i) => {
    const [x0, y0, x1, y1] = corners[i];
    const [cx, cy] = [((x0 + x1) / 2) * fx, ((y0 + y1) / 2) * fy];
    const half = (Math.max((x1 - x0) * fx, (y1 - y0) * fy) * DETECTOR_BOX_SCALE) / 2;
    const [sx, sy] = [Math.max(0, Math.round(cx - half)), Math.max(0, Math.round(cy - half))];
    const [ex, ey] = [Math.min(width, Math.round(cx + half)), Math.min(height, Math.round(cy + half))];
    return { box: [sx, sy, ex - sx, ey - sy], score: scores[i] };
  });
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
 * The detector reads the whole image squeezed to 256 × 256, so in a mosaic of 40 faces of 240 ×
 * 300 px on 1920 × 1500 it found one: a crowd passed as one face. When the whole image shows at
 * most one face, the crowd pass (crowdCandidates) looks for smaller faces; each box it finds that
 * could be a face that counts (CROWD_CANDIDATE_SHARE) and is not counted yet (its centre in a
 * counted face's box) is confirmed by Human's full detect (detector and mesh, which drops boxes on
 * a card's text) on one of four overlapping tiles (each 60 % of a side, so each face of up to a
 * fifth of the image lies whole in one of them): the one that holds it clear of its inner edges
 * with its centre nearest the box's. A face found in a tile counts when it is large enough for the
 * whole image (FACE_MIN_SIDE_SHARE), lies clear of the tile's inner edges (a face cut by the tile
 * is read whole in another) and is not counted yet. Only the count matters there: no iris.
 */
async function withCrowd(
  judgement: FaceJudgement,
  at: {
    human: HumanInstance;
    tf: TfCore;
    crowd: CrowdDetector;
    tensor: Tensor;
    /** The tensor's int32 RGB values, row by row. */
    values: Int32Array;
    width: number;
    height: number;
  },
): Promise<FaceJudgement> {
  const { human, crowd, tensor, values, width, height } = at;
  const tf = at.tf as unknown as typeof Tf;
  const tiles = crowdTiles(width, height);
  const [{ width: tileWidth, height: tileHeight }] = tiles;
  const margin = Math.min(width, height) * 0.02;
  const faces = [...judgement.faces];
  const counted = ({ box }: { box: DetectedFace['box'] }) => {
    const cx = box[0] + box[2] / 2;
    const cy = box[1] + box[3] / 2;
    return faces.some(
      (f) => cx >= f.box[0] && cx <= f.box[0] + f.box[2] && cy >= f.box[1] && cy <= f.box[1] + f.box[3],
    );
  };
  /** Whether a box (in the tile's pixels) lies clear of the tile's inner edges. */
  const clear = (box: DetectedFace['box'], left: number, top: number) =>
    (left === 0 || box[0] > margin) &&
    (top === 0 || box[1] > margin) &&
    (left + tileWidth === width || box[0] + box[2] < tileWidth - margin) &&
    (top + tileHeight === height || box[1] + box[3] < tileHeight - margin);
  /** The faces of a tile's reading that count for the whole image and are not counted yet. */
  const newFaces = (found: HumanFace[], left: number, top: number) => {
    const placed: DetectedFace[] = found
      .filter((f) => clear(f.box, left, top))
      .map((f) => ({
        box: [f.box[0] + left, f.box[1] + top, f.box[2], f.box[3]],
        score: f.boxScore ?? f.score,
        mesh: f.mesh.map(([x, y, z]) => [x + left, y + top, z]),
      }));
    return judgeFaces(placed, width, height).faces.filter((face) => !counted(face));
  };
  const least = Math.min(width, height) * FACE_MIN_SIDE_SHARE * CROWD_CANDIDATE_SHARE;
  const candidates = (
    await crowdCandidates(tf, crowd, tensor as unknown as Tf.Tensor3D, width, height)
  ).filter((c) => Math.min(c.box[2], c.box[3]) >= least && !counted(c));
  /** The tile each candidate is confirmed on. */
  const tileOf = candidates.map(({ box }) => {
    const [cx, cy] = [box[0] + box[2] / 2, box[1] + box[3] / 2];
    const holding = tiles
      .map((tile, index) => ({
        index,
        distance: Math.hypot(tile.left + tileWidth / 2 - cx, tile.top + tileHeight / 2 - cy),
      }))
      .filter(({ index }) => {
        const { left, top } = tiles[index];
        return clear([box[0] - left, box[1] - top, box[2], box[3]], left, top);
      })
      .sort((a, b) => a.distance - b.distance);
    return holding[0]?.index;
  });
  for (const [index, { left, top }] of tiles.entries()) {
    // Skipped when its candidates were counted meanwhile (found on an earlier tile).
    if (!candidates.some((c, i) => tileOf[i] === index && !counted(c))) continue;
    // The tile's rows copied from the pixel values: the same int32 tensor as tf.slice gives, in
    // ~1 ms, where the wasm backend's slice of a 3-d int32 tensor took 18–35 ms.
    const rows = new Int32Array(tileWidth * tileHeight * 3);
    for (let y = 0; y < tileHeight; y++) {
      const from = ((top + y) * width + left) * 3;
      rows.set(values.subarray(from, from + tileWidth * 3), y * tileWidth * 3);
    }
    const tile = tf.tensor3d(rows, [tileHeight, tileWidth, 3], 'int32');
    try {
      const result = await human.detect(tile as unknown as Tensor, faceUseConfig('count'));
      if (result.error) continue;
      for (const face of newFaces(result.face, left, top)) faces.push(face);
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
