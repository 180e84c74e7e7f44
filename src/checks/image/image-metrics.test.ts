import { describe, expect, it } from 'vitest';
import {
  BLUR_VARIANCE_MIN,
  boxResize,
  documentGlareShare,
  glareShare,
  GLARE_LEVEL,
  hasGlare,
  grayscaleScore,
  hammingDistance,
  imageMetrics,
  isGrayscale,
  laplacianVariance,
  metricSize,
  perceptualHash,
  PHASH_BITS,
  SIMILAR_HASH_MAX_DISTANCE,
  toGray,
} from './image-metrics';

/** A deterministic RGBA test card: coloured bands with black "text" strokes every few pixels. */
function card(width: number, height: number, { colour = true, stroke = 3 } = {}) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const band = Math.floor((x / width) * 4);
      const base = colour
        ? [
            [200, 40, 40],
            [40, 160, 60],
            [30, 60, 200],
            [230, 200, 40],
          ][band]
        : [180, 180, 180];
      const ink = y % (stroke * 4) < stroke && x % 10 < 7;
      data[o] = ink ? 10 : base[0];
      data[o + 1] = ink ? 10 : base[1];
      data[o + 2] = ink ? 10 : base[2];
      data[o + 3] = 255;
    }
  }
  return { data, width, height, channels: 4 };
}

describe('toGray', () => {
  it('uses integer BT.601 luma and ignores alpha', () => {
    expect([...toGray([255, 0, 0, 9, 0, 255, 0, 9, 0, 0, 255, 9, 255, 255, 255, 0], 4)]).toEqual([
      77, 149, 29, 255,
    ]);
    expect([...toGray([7, 255, 8, 0], 2)]).toEqual([7, 8]);
  });
});

describe('normalisation', () => {
  it('keeps small images and brings the long side of large ones to 512', () => {
    expect(metricSize(400, 300)).toEqual({ width: 400, height: 300 });
    expect(metricSize(1000, 630)).toEqual({ width: 512, height: 323 });
    expect(metricSize(630, 1000)).toEqual({ width: 323, height: 512 });
  });

  it('box-filters exact means', () => {
    const out = boxResize({ data: [0, 10, 20, 30, 40, 50, 60, 70], width: 4, height: 2, channels: 1 }, 2, 1);
    expect([...(out.data as Uint8Array)]).toEqual([25, 45]);
  });

  it("gives, for any sizes and channels, the rounded mean of each output pixel's source box", () => {
    // The definition, pixel by pixel (the function sums rows first, for speed).
    const reference = (
      image: { data: Uint8Array; width: number; height: number; channels: number },
      outW: number,
      outH: number,
    ) => {
      const { data, width: w, height: h, channels: c } = image;
      const out: number[] = [];
      for (let y = 0; y < outH; y++) {
        const y0 = Math.floor((y * h) / outH);
        const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * h) / outH));
        for (let x = 0; x < outW; x++) {
          const x0 = Math.floor((x * w) / outW);
          const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * w) / outW));
          for (let k = 0; k < c; k++) {
            let sum = 0;
            for (let sy = y0; sy < y1; sy++)
              for (let sx = x0; sx < x1; sx++) sum += data[(sy * w + sx) * c + k];
            out.push(Math.round(sum / ((y1 - y0) * (x1 - x0))));
          }
        }
      }
      return out;
    };
    let seed = 3;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 23;
    for (const [w, h, c, outW, outH] of [
      [1024, 683, 4, 512, 342],
      [97, 61, 3, 40, 25],
      [33, 20, 1, 33, 20],
      [10, 7, 2, 23, 15],
    ]) {
      const data = Uint8Array.from({ length: w * h * c }, random);
      const out = boxResize({ data, width: w, height: h, channels: c }, outW, outH);
      expect([...(out.data as Uint8Array)]).toEqual(
        reference({ data, width: w, height: h, channels: c }, outW, outH),
      );
    }
  });
});

describe('grayscale', () => {
  it('tells a colour card from a gray one', () => {
    const colour = card(800, 500);
    const gray = card(800, 500, { colour: false });
    expect(grayscaleScore(colour)).toBeGreaterThan(0.5);
    expect(grayscaleScore(gray)).toBe(0);
    expect(isGrayscale(gray)).toBe(true);
    expect(isGrayscale(colour)).toBe(false);
    expect(isGrayscale({ data: new Uint8Array(100), width: 10, height: 10, channels: 1 })).toBe(true);
  });
});

describe('blur', () => {
  it('scores sharp strokes high and a flat or smoothed image low', () => {
    const sharp = card(1000, 630);
    const sharpGray = toGray(sharp.data, 4);
    const sharpScore = laplacianVariance(sharpGray, 1000, 630);
    expect(sharpScore).toBeGreaterThan(BLUR_VARIANCE_MIN);
    // A 4× box downscale then 4× upscale smooths strokes into ramps.
    const smooth = boxResize(
      boxResize({ data: sharpGray, width: 1000, height: 630, channels: 1 }, 125, 79),
      1000,
      630,
    );
    const soft = boxResize(smooth, 250, 158);
    const blurred = boxResize(soft, 1000, 630);
    expect(laplacianVariance(blurred.data, 1000, 630)).toBeLessThan(sharpScore);
    expect(laplacianVariance(new Uint8Array(600 * 600).fill(128), 600, 600)).toBe(0);
  });
});

/** Gray picture with a few filled discs (x, y, r, level as shares of the size), like a face or a logo. */
function scene(width: number, height: number, discs: [number, number, number, number][]) {
  const gray = new Uint8Array(width * height).fill(235);
  for (const [cx, cy, r, level] of discs) {
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if ((x / width - cx) ** 2 + (y / height - cy) ** 2 < r * r) gray[y * width + x] = level;
      }
    }
  }
  return gray;
}

describe('perceptual hash', () => {
  it('is 64 bits, stable under resizing, and far between different pictures', () => {
    const a = scene(1000, 630, [
      [0.75, 0.5, 0.2, 90],
      [0.2, 0.2, 0.1, 30],
      [0.3, 0.75, 0.12, 160],
    ]);
    const hashA = perceptualHash(a, 1000, 630);
    expect(hashA).toMatch(/^[0-9a-f]{16}$/);
    expect(hashA.length * 4).toBe(PHASH_BITS);
    const resized = boxResize({ data: a, width: 1000, height: 630, channels: 1 }, 800, 504);
    expect(hammingDistance(hashA, perceptualHash(resized.data, 800, 504))).toBeLessThanOrEqual(
      SIMILAR_HASH_MAX_DISTANCE,
    );
    const b = scene(1000, 630, [
      [0.25, 0.5, 0.2, 90],
      [0.8, 0.8, 0.1, 30],
      [0.6, 0.2, 0.12, 160],
    ]);
    expect(hammingDistance(hashA, perceptualHash(b, 1000, 630))).toBeGreaterThan(SIMILAR_HASH_MAX_DISTANCE);
  });

  it('counts differing bits', () => {
    expect(hammingDistance('00', '00')).toBe(0);
    expect(hammingDistance('0f', 'f0')).toBe(8);
    expect(hammingDistance('ff', 'fff')).toBe(12);
  });

  it('gives every metric at once', () => {
    const m = imageMetrics(card(1000, 630));
    expect(m).toMatchObject({ width: 1000, height: 630, grayscale: false, blurry: false });
    expect(m.phash).toHaveLength(16);
  });
});

describe('glare', () => {
  it('counts blown-out pixels, in the whole image or in a box of it', () => {
    const gray = new Uint8Array(100 * 100).fill(235);
    expect(glareShare(gray, 100, 100)).toBe(0);
    // A reflection of 10×10 px in the top-left corner.
    for (let y = 0; y < 10; y++) gray.fill(GLARE_LEVEL, y * 100, y * 100 + 10);
    expect(glareShare(gray, 100, 100)).toBeCloseTo(0.01);
    expect(glareShare(gray, 100, 100, { x: 0, y: 0, width: 20, height: 20 })).toBeCloseTo(0.25);
    expect(hasGlare(glareShare(gray, 100, 100, { x: 0, y: 0, width: 20, height: 20 }))).toBe(true);
    expect(glareShare(gray, 100, 100, { x: 50, y: 50, width: 80, height: 80 })).toBe(0);
  });

  it("measures a found document's glare in its corners' bounding box", () => {
    const gray = new Uint8Array(100 * 100).fill(235);
    for (let y = 0; y < 10; y++) gray.fill(GLARE_LEVEL, y * 100, y * 100 + 10);
    const corners = [
      { x: 0, y: 0 },
      { x: 20, y: 2 },
      { x: 18, y: 20 },
      { x: 1, y: 19 },
    ];
    expect(documentGlareShare(gray, 100, 100, corners)).toBeCloseTo(0.25);
  });

  it('names no glare on a page whose own paper is blown out', () => {
    // A white page at 255 with lines of dark print on a third of it.
    const gray = new Uint8Array(100 * 100).fill(255);
    for (let y = 10; y < 90; y += 6) gray.fill(20, y * 100 + 10, (y + 2) * 100 - 10);
    expect(glareShare(gray, 100, 100)).toBe(0);
    expect(hasGlare(glareShare(gray, 100, 100))).toBe(false);
  });
});
