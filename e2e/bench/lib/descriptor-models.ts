// The models bench:descriptors compares: Human (its mesh, and its own descriptor `faceres`), dlib's
// ResNet (face-recognition.ts), and with HUMAN_MODELS_DIR the ArcFace-family graph models.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { GraphModel } from '@tensorflow/tfjs-converter';
import type * as Tf from '@tensorflow/tfjs-core';
import { loadFaceModels } from '@/checks/face/node/faces';
import { loadRecognitionNet } from '@/checks/face/node/face-recognition';

export interface HumanLike {
  detect(
    input: Tf.Tensor,
    config?: unknown,
  ): Promise<{ face: { box: number[]; mesh: [number, number, number?][]; embedding?: number[] }[] }>;
}

export async function loadDescriptorModels() {
  const { human: loaded, tf: tfLoaded } = await loadFaceModels();
  const human = loaded as unknown as HumanLike;
  const tf = tfLoaded as unknown as typeof Tf;
  const net = await loadRecognitionNet(tf);
  const extraDir = process.env.HUMAN_MODELS_DIR;
  const converter = createRequire(import.meta.url)('@tensorflow/tfjs-converter') as {
    loadGraphModel(url: string): Promise<GraphModel>;
  };
  const extra = extraDir
    ? {
        mobileface: await converter.loadGraphModel(`file://${join(extraDir, 'mobileface.json')}`),
        mobilefacenet: await converter.loadGraphModel(`file://${join(extraDir, 'mobilefacenet.json')}`),
      }
    : undefined;
  return { human, tf, net, extraDir, extra };
}

// Human's own descriptor, which the service no longer loads: switched on for this comparison.
export const faceresConfig = {
  face: {
    mesh: { enabled: true },
    iris: { enabled: false },
    description: { enabled: true, modelPath: 'faceres.json', skipFrames: 0, skipTime: 0 },
  },
};
