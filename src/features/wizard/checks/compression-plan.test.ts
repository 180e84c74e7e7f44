import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES, MIN_IMAGE_SIDE } from '@/shared/limits';
import { checkBasics } from './check-image';
import { COMPRESS_ABOVE_BYTES, compressionPlan, metricsDecodeSize } from './compression-plan';

const MB = 1024 * 1024;

describe('compressionPlan', () => {
  it('leaves small photos alone', () => {
    expect(compressionPlan({ width: 2000, height: 1500, bytes: 1.5 * MB })).toBeNull();
    expect(compressionPlan({ width: 600, height: 600, bytes: COMPRESS_ABOVE_BYTES })).toBeNull();
  });

  it('shrinks a 12-megapixel photo to the target long side, either way up', () => {
    expect(compressionPlan({ width: 4000, height: 3000, bytes: 2 * MB })).toEqual({
      width: 2048,
      height: 1536,
    });
    expect(compressionPlan({ width: 3000, height: 4000, bytes: 5 * MB })).toEqual({
      width: 1536,
      height: 2048,
    });
    // 4032×3024 (a phone's 12 MP): the short side rounded, not truncated.
    expect(compressionPlan({ width: 4032, height: 3024, bytes: 4 * MB })).toEqual({
      width: 2048,
      height: 1536,
    });
    expect(compressionPlan({ width: 4000, height: 2250, bytes: 4 * MB })).toEqual({
      width: 2048,
      height: 1152,
    });
  });

  it('never takes the short side under the minimum, whatever the aspect ratio', () => {
    for (const [width, height] of [
      [12000, 700],
      [700, 12000],
      [9000, 601],
      [5000, 1000],
      [4001, 600],
    ]) {
      const plan = compressionPlan({ width, height, bytes: 10 * MB })!;
      expect(plan).not.toBeNull();
      expect(Math.min(plan.width, plan.height)).toBeGreaterThanOrEqual(MIN_IMAGE_SIDE);
      // Never enlarged, and the aspect ratio kept (within the rounding of a pixel).
      expect(plan.width).toBeLessThanOrEqual(width);
      expect(plan.height).toBeLessThanOrEqual(height);
      expect(Math.abs(plan.width / plan.height - width / height)).toBeLessThan(
        (width / height) * 0.01 + 0.01,
      );
    }
    expect(compressionPlan({ width: 12000, height: 700, bytes: 10 * MB })).toEqual({
      width: 10286,
      height: 600,
    });
    expect(compressionPlan({ width: 4001, height: 600, bytes: 10 * MB })).toEqual({
      width: 4001,
      height: 600,
    });
  });

  it('re-encodes a heavy file that is already small enough without enlarging it', () => {
    expect(compressionPlan({ width: 1800, height: 1200, bytes: 9 * MB })).toEqual({
      width: 1800,
      height: 1200,
    });
  });
});

describe('metricsDecodeSize', () => {
  it('decodes for the metrics at a long side of 1024, as the service does, never enlarging', () => {
    expect(metricsDecodeSize({ width: 2560, height: 1920 })).toEqual({ width: 1024, height: 768 });
    expect(metricsDecodeSize({ width: 1920, height: 2560 })).toEqual({ width: 768, height: 1024 });
    expect(metricsDecodeSize({ width: 800, height: 600 })).toEqual({ width: 800, height: 600 });
    expect(metricsDecodeSize({ width: 20000, height: 10 })).toEqual({ width: 1024, height: 1 });
  });
});

describe('checkBasics', () => {
  it('takes JPEG and PNG for every image kind, PDF for custom documents only', () => {
    expect(checkBasics('jpeg', MB, 'document')).toEqual({ ok: true, format: 'jpeg' });
    expect(checkBasics('png', MB, 'selfie')).toEqual({ ok: true, format: 'png' });
    expect(checkBasics('pdf', MB, 'custom-document')).toEqual({ ok: true, format: 'pdf' });
    expect(checkBasics('pdf', MB, 'document')).toEqual({ ok: false, reason: 'client.pdfNotAllowed' });
    expect(checkBasics('pdf', MB, 'selfie')).toEqual({ ok: false, reason: 'client.pdfNotAllowed' });
  });

  it('refuses other bytes whatever the name says', () => {
    expect(checkBasics(null, MB, 'document')).toEqual({ ok: false, reason: 'client.wrongFormat' });
    expect(checkBasics('mp4', MB, 'selfie')).toEqual({ ok: false, reason: 'client.wrongFormat' });
  });

  it('refuses files over 50 MB and takes one of exactly 50 MB', () => {
    expect(checkBasics('jpeg', MAX_FILE_BYTES, 'document')).toEqual({ ok: true, format: 'jpeg' });
    expect(checkBasics('jpeg', MAX_FILE_BYTES + 1, 'document')).toEqual({
      ok: false,
      reason: 'client.tooBig',
    });
  });
});
