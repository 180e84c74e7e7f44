// The accuracy report's section on presentation attacks: Human's `antispoof` and `liveness` models
// (both ship in @vladmandic/human's models/) on the set's real photos of one person (kind `face`,
// expect `ok`: a genuine person must pass) and on replays made from each of them here, in memory,
// never written anywhere:
// - screen: the photo on a phone's screen held up to the camera: a dark bezel, a slight
//   perspective (affine shear and turn), moiré (fine light and dark lines at a slant, multiplied
//   in), a glare (a soft white ellipse, screened in), the whole re-shot smaller and re-encoded;
// - print: a photo of a printed photo: a white paper margin on a wooden-brown table, duller
//   colours and contrast, a small turn, a slight blur, JPEG q70;
// - print of the screen (a replay of a replay): the screen replay printed as above.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { decodeForFaces, fileRouter, humanModelsDir, wasmDir } from '@/checks/face/node/faces';
import { humanConfig } from '@/checks/face/face-rules';
import type { AccuracySection, EvalSet } from './eval-set';

const require = createRequire(import.meta.url);

interface Tensor {
  dispose(): void;
}
interface HumanFace {
  box: [number, number, number, number];
  real?: number;
  live?: number;
}
interface Human {
  load(): Promise<void>;
  detect(input: Tensor): Promise<{ face: HumanFace[]; error?: string | null }>;
}
interface Tf {
  tensor3d(values: Int32Array, shape: [number, number, number], dtype: 'int32'): Tensor;
  io: { registerLoadRouter(router: (url: string | string[]) => unknown): void };
}

async function loadHuman(): Promise<{ human: Human; tf: Tf }> {
  const tf = require('@tensorflow/tfjs-core') as Tf;
  tf.io.registerLoadRouter(fileRouter);
  const humanPath = join(dirname(require.resolve('@vladmandic/human')), 'human.node-wasm.js');
  const { Human } = require(humanPath) as { Human: new (config: unknown) => Human };
  const config = humanConfig({
    modelBasePath: `file://${humanModelsDir()}/`,
    wasmPath: `${wasmDir()}/`,
  });
  const face = {
    ...config.face,
    iris: { ...config.face.iris, enabled: false },
    antispoof: { enabled: true, modelPath: 'antispoof.json', skipFrames: 0, skipTime: 0 },
    liveness: { enabled: true, modelPath: 'liveness.json', skipFrames: 0, skipTime: 0 },
  };
  const human = new Human({ ...config, face });
  await human.load();
  return { human, tf };
}

async function scores(human: Human, tf: Tf, image: Buffer) {
  const { data, info } = await decodeForFaces(image);
  const values = Int32Array.from(data);
  const tensor = tf.tensor3d(values, [info.height, info.width, 3], 'int32');
  try {
    const result = await human.detect(tensor);
    const face = [...result.face].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0];
    return face ? { real: face.real ?? NaN, live: face.live ?? NaN } : undefined;
  } finally {
    tensor.dispose();
  }
}

async function screenReplay(photo: Buffer): Promise<Buffer> {
  const screen = await sharp(photo).rotate().resize({ width: 720, height: 960, fit: 'cover' }).toBuffer();
  const { width, height } = { width: 720, height: 960 };
  const lines = Array.from(
    { length: 240 },
    (_, i) =>
      `<line x1="${i * 6 - 400}" y1="0" x2="${i * 6}" y2="${height}" stroke="#000" stroke-opacity="0.18" stroke-width="2"/>`,
  ).join('');
  const moire = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${lines}</svg>`,
  );
  const glare = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><radialGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="0.55"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><ellipse cx="${width * 0.7}" cy="${height * 0.25}" rx="${width * 0.35}" ry="${height * 0.2}" fill="url(#g)"/></svg>`,
  );
  const lit = await sharp(screen)
    .composite([
      { input: moire, blend: 'multiply' },
      { input: glare, blend: 'screen' },
    ])
    .modulate({ brightness: 1.05, saturation: 1.15 })
    .png()
    .toBuffer();
  const phone = await sharp({
    create: { width: width + 80, height: height + 160, channels: 3, background: '#111' },
  })
    .composite([{ input: lit, left: 40, top: 80 }])
    .png()
    .toBuffer();
  const tilted = await sharp(phone)
    .affine(
      [
        [0.97, 0.06],
        [-0.03, 1],
      ],
      { background: '#5b5147' },
    )
    .rotate(4, { background: '#5b5147' })
    .png()
    .toBuffer();
  const shot = await sharp({ create: { width: 1280, height: 1280, channels: 3, background: '#5b5147' } })
    .composite([
      {
        input: await sharp(tilted).resize({ width: 1200, height: 1200, fit: 'inside' }).toBuffer(),
        gravity: 'centre',
      },
    ])
    .png()
    .toBuffer();
  // Re-shot smaller (a second pipeline: sharp composites after resizing).
  return sharp(shot).resize(960).jpeg({ quality: 80 }).toBuffer();
}

async function printReplay(photo: Buffer): Promise<Buffer> {
  const print = await sharp(photo)
    .rotate()
    .resize({ width: 600, height: 800, fit: 'cover' })
    .modulate({ saturation: 0.75, brightness: 0.95 })
    .linear(0.8, 30)
    .extend({ top: 40, bottom: 40, left: 40, right: 40, background: '#f4f1ea' })
    .png()
    .toBuffer();
  const turned = await sharp(print).rotate(-5, { background: '#7a5232' }).png().toBuffer();
  return sharp({ create: { width: 1000, height: 1100, channels: 3, background: '#7a5232' } })
    .composite([{ input: turned, gravity: 'centre' }])
    .blur(1.2)
    .jpeg({ quality: 70 })
    .toBuffer();
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};
const fmt = (v: number) => v.toFixed(3);
const spread = (values: number[]) =>
  values.length
    ? `${fmt(Math.min(...values))}–${fmt(Math.max(...values))} (median ${fmt(quantile(values, 0.5))})`
    : 'none';

export async function livenessSection(set: EvalSet): Promise<AccuracySection> {
  const { human, tf } = await loadHuman();
  const genuine = set.entries.filter((e) => e.kind === 'face' && e.expect === 'ok');
  const kinds = ['genuine', 'screen', 'print', 'print of screen'] as const;
  const got: Record<(typeof kinds)[number], { real: number[]; live: number[]; missed: number }> = {
    genuine: { real: [], live: [], missed: 0 },
    screen: { real: [], live: [], missed: 0 },
    print: { real: [], live: [], missed: 0 },
    'print of screen': { real: [], live: [], missed: 0 },
  };
  for (const entry of genuine) {
    const photo = await sharp(entry.path).toBuffer();
    const screen = await screenReplay(photo);
    const images = {
      genuine: photo,
      screen,
      print: await printReplay(photo),
      'print of screen': await printReplay(screen),
    };
    for (const kind of kinds) {
      const s = await scores(human, tf, images[kind]);
      if (!s) got[kind].missed++;
      else {
        got[kind].real.push(s.real);
        got[kind].live.push(s.live);
      }
    }
  }
  const lines: string[] = [`${genuine.length} genuine photos (face, ok), each replayed three ways`];
  const figures: Record<string, unknown> = {};
  for (const model of ['real', 'live'] as const) {
    // The pass mark that refuses at most 2 % of genuine people, and what it catches.
    const mark = quantile(got.genuine[model], 0.02);
    lines.push(
      `${model === 'real' ? 'antispoof (real)' : 'liveness (live)'}: pass mark for ≤ 2 % genuine refused ${fmt(mark)}`,
    );
    const caught: Record<string, number> = {};
    for (const kind of kinds) {
      const v = got[kind][model];
      const refused = v.filter((x) => x < mark).length;
      caught[kind] = v.length ? refused / v.length : NaN;
      lines.push(
        `  ${kind.padEnd(16)} ${spread(v)}; under the mark ${refused}/${v.length}${got[kind].missed ? `, no face ${got[kind].missed}` : ''}`,
      );
    }
    figures[model] = { mark, underMark: caught, genuine: got.genuine[model].length };
  }
  return { name: 'presentation attacks (antispoof, liveness)', lines, figures };
}
