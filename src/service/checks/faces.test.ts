import { describe, expect, it } from 'vitest';
import { sample } from '../../../e2e/fixtures/samples';
import { detectFaces } from './face-reader';
import { inspectImage } from '@/checks/image/node/image';

describe("faces from the image check's one decode", () => {
  it("judge as the file's own decode does: counts, and eye openness within 0.03", async () => {
    for (const [file, use] of [
      ['selfie.jpg', 'selfie'],
      ['selfie-closed-eyes.jpg', 'selfie'],
      ['selfie-multiple-faces.jpg', 'selfie'],
      ['selfie-no-face.jpg', 'selfie'],
      ['gb-passport.jpg', 'count'],
      ['ar-national-id-front.jpg', 'count'],
    ] as const) {
      const { path } = sample(file);
      // The Argentine DNI front is decoded at the barcode's 2048, halved for the detector.
      const inspected = await inspectImage(path, { faces: true, pdf417: file.startsWith('ar-') });
      if (!inspected.ok || !inspected.faces) throw new Error(`${file}: no pixels`);
      expect(Math.max(inspected.faces.width, inspected.faces.height)).toBeLessThanOrEqual(1024);
      const fromPixels = await detectFaces(inspected.faces, use);
      const fromFile = await detectFaces(path, use);
      expect(fromPixels.faces.length, file).toBe(fromFile.faces.length);
      if (fromFile.eyeOpenness !== undefined)
        expect(Math.abs((fromPixels.eyeOpenness ?? 0) - fromFile.eyeOpenness), file).toBeLessThan(0.03);
    }
  });
});
