import { describe, expect, it } from 'vitest';
import { faceCoverVerdict, measureFaceCover, type FaceCover } from './face-cover';
import { faceGuide, selfieVerdict, type DetectedFace, type FaceJudgement } from './face-rules';

const bare: FaceCover = { maskScore: 0.3, lensSkinShare: 0.9, lensLuminance: 0.6, lensChroma: 1 };
const masked: FaceCover = { ...bare, maskScore: 2.5 };
const lenses: FaceCover = {
  ...bare,
  maskScore: 1.9,
  lensSkinShare: 0.05,
  lensLuminance: 0.15,
  lensChroma: 0.8,
};
const face: DetectedFace = { box: [100, 100, 300, 300], score: 0.9, mesh: [] };
const judged = (cover: FaceCover | undefined, eyeOpenness = 0.35): FaceJudgement => ({
  faces: [face],
  eyeOpenness,
  ...(cover ? { cover } : {}),
});

describe('the cover rule', () => {
  it('names lenses before a mask, and judges nothing it could not measure', () => {
    expect(faceCoverVerdict(bare)).toBeNull();
    expect(faceCoverVerdict(masked)).toBe('maskDetected');
    expect(faceCoverVerdict(lenses)).toBe('sunGlasses');
    expect(faceCoverVerdict(undefined)).toBeNull();
    // Dark round the eyes but as colourful as skin (a white cap and a white mask around skin): no lenses.
    expect(faceCoverVerdict({ ...lenses, lensChroma: 5.8 })).toBe('maskDetected');
  });

  it('sits in the selfie rule after the face count and before closed eyes', () => {
    expect(selfieVerdict({ faces: [] })).toBe('noFace');
    expect(selfieVerdict({ faces: [face, face], cover: masked })).toBe('multipleFaces');
    expect(selfieVerdict(judged(lenses, 0.1))).toBe('sunGlasses');
    expect(selfieVerdict(judged(masked, 0.1))).toBe('maskDetected');
    expect(selfieVerdict(judged(bare, 0.1))).toBe('closedEyes');
    expect(selfieVerdict(judged(undefined))).toBeNull();
  });

  it('asks the camera to take them off once the face is near enough', () => {
    expect(faceGuide(judged(lenses), 640, 480)).toBe('sunglasses');
    expect(faceGuide(judged(masked), 640, 480)).toBe('mask');
    expect(faceGuide(judged(bare), 640, 480)).toBe('ready');
    expect(faceGuide({ faces: [{ ...face, box: [0, 0, 60, 60] }], cover: masked }, 640, 480)).toBe('tooFar');
  });

  it('measures nothing without the mesh points it hangs on', () => {
    expect(
      measureFaceCover({ data: new Uint8Array(300), width: 10, height: 10, channels: 3 }, []),
    ).toBeUndefined();
  });
});
