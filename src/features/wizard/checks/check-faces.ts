import type { Human } from '@vladmandic/human';
import {
  FACE_INPUT_LONG_SIDE,
  humanConfig,
  judgeFaces,
  selfieVerdict,
  type DetectedFace,
} from '@/shared/face-rules';
import type { ClientCheckCode } from './check-codes';

/**
 * The selfie's face check in the browser, with the service's rules (`@/shared/face-rules`): exactly
 * one face, eyes open. Human (its ES bundle carries TensorFlow.js) and the three models it needs
 * here (blazeface, facemesh, iris: 4.6 MB, no descriptor model) load on the first selfie only;
 * vite.config.ts serves the model and wasm files from node_modules.
 */

let loading: Promise<Human> | undefined;

function loadHuman(): Promise<Human> {
  loading ??= (async () => {
    const { Human: HumanClass } = await import('@vladmandic/human');
    const config = humanConfig({
      modelBasePath: new URL('/models/human/', location.href).href,
      wasmPath: new URL('/models/tfjs/', location.href).href,
      descriptor: false,
    });
    const human = new HumanClass(config as ConstructorParameters<typeof HumanClass>[0]);
    await human.load();
    return human;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

/** Starts loading the face check ahead of the selfie (the step that needs it calls this). */
export const preloadFaceCheck = () => loadHuman().then(() => undefined);

async function pixels(image: Blob) {
  const bitmap = await createImageBitmap(image, { imageOrientation: 'from-image' });
  const scale = Math.min(1, FACE_INPUT_LONG_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.round(bitmap.width * scale);
  const height = Math.round(bitmap.height * scale);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  return canvas;
}

export interface SelfieFaceCheck {
  problem: ClientCheckCode | null;
  faces: number;
  /** Time of the detection itself, models loaded (for the benchmark). */
  detectMs: number;
}

const codeOf = {
  noFace: 'client.noFace',
  multipleFaces: 'client.multipleFaces',
  closedEyes: 'client.closedEyes',
} as const satisfies Record<string, ClientCheckCode>;

/** Detects faces on a selfie and judges them as the service will. */
export async function checkSelfieFace(image: Blob): Promise<SelfieFaceCheck> {
  const human = await loadHuman();
  const canvas = await pixels(image);
  const start = performance.now();
  const result = await human.detect(canvas);
  const detectMs = performance.now() - start;
  const detected: DetectedFace[] = result.face.map((f) => ({
    box: f.box,
    score: f.boxScore ?? f.score,
    mesh: f.mesh as DetectedFace['mesh'],
  }));
  const judgement = judgeFaces(detected, canvas.width, canvas.height);
  const verdict = selfieVerdict(judgement);
  return { problem: verdict ? codeOf[verdict] : null, faces: judgement.faces.length, detectMs };
}
