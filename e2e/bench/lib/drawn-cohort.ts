// A cohort without shipping real faces: the repo's own drawn faces (e2e/fixtures/samples, made by
// scripts/make-samples.ts, no real person).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type * as Tf from '@tensorflow/tfjs-core';
import { decodeForFaces } from '@/checks/face/node/faces';
import {
  DLIB_33_ALIGNMENT,
  recognitionDescriptor,
  type RecognitionNet,
} from '@/checks/face/node/face-recognition';
import { faceUseConfig } from '@/checks/face/face-rules';
import type { HumanLike } from './descriptor-models';

/** The 33-point ResNet descriptor of every face found in the drawn samples' JPEGs. */
export async function drawnCohort(human: HumanLike, tf: typeof Tf, net: RecognitionNet) {
  const samplesDir = join(import.meta.dirname, '..', '..', 'fixtures', 'samples');
  const cohort: number[][] = [];
  for (const file of readdirSync(samplesDir).filter((f) => f.endsWith('.jpg'))) {
    const { data, info } = await decodeForFaces(join(samplesDir, file));
    const image = tf.tensor3d(Int32Array.from(data), [info.height, info.width, 3], 'int32');
    try {
      const result = await human.detect(image, faceUseConfig('count'));
      for (const face of result.face) {
        const descriptor = await recognitionDescriptor(net, image, face.mesh, {
          alignment: DLIB_33_ALIGNMENT,
        });
        if (descriptor) cohort.push(descriptor);
      }
    } finally {
      image.dispose();
    }
  }
  return cohort;
}
