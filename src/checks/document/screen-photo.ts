/**
 * A photo of a screen, told by its moiré: the camera's sensor grid beating against the screen's
 * red, green and blue subpixels leaves ripples of colour (rainbow or two-hue fringes) over the
 * picture, also where the picture itself is flat. Printed paper, a card or a scan shows colour
 * where its ink shows: a change of colour there comes with a change of brightness (print on
 * paper), along one line of hues (one ink on white). One measure for the service and the browser,
 * pure arithmetic on the pixels: blocks of the photo whose band-passed colour
 * (SCREEN_BAND_INNER…SCREEN_BAND_OUTER px at SCREEN_LONG_SIDE) is
 * - strong (SCREEN_CHROMA_MIN),
 * - stronger than the brightness detail of the most detailed block around it (SCREEN_LUMA_RATIO_MIN:
 *   colour beside print or an edge is the print's),
 * - turning through hues rather than along one (SCREEN_HUE_SPREAD_MIN: the smaller eigenvalue of the
 *   two colour differences' covariance over the larger),
 * - a wave (SCREEN_COHERENCE_MIN: the colour a few pixels on is the opposite of the colour here).
 * On the eval set of bench:accuracy (npm run bench:accuracy, section "screen photos"): genuine specimens (scans,
 * with rainbow prints and guilloches), camera photos of paper copies and covered copies have no such
 * block; photos of screens showing pictures have 0–16 % of their blocks so, and the project's drawn
 * room and landscape (e2e/fixtures/make-not-documents.ts, grass strokes and noise) up to 1.7 %: the
 * mark sits above those. It misses screens whose moiré is finer than the 1024 px decode keeps, and
 * screens seen from afar with their bezel (no bezel or glow is looked for).
 */
import { boxShrinkTo, type PixelImage } from '@/checks/image/image-metrics';

/** The measure's scale: the service's decode and the browser's frame are box-filtered to it. */
export const SCREEN_LONG_SIDE = 1024;
/** Side of a block (px at SCREEN_LONG_SIDE). */
export const SCREEN_BLOCK = 48;
/** The band: a box mean of radius 1 minus a twice-applied box mean of radius 4 (~3–16 px periods). */
export const SCREEN_BAND_INNER = 1;
export const SCREEN_BAND_OUTER = 4;
/** Mean squared band-passed colour difference (R−G and B−(R+G)/2) a block needs (a ripple of ~±3). */
export const SCREEN_CHROMA_MIN = 9;
/** Colour energy over the brightness energy of the most detailed block around it (+4 for noise). */
export const SCREEN_LUMA_RATIO_MIN = 1;
/** Smaller over larger eigenvalue of the colour ripple's covariance: hues turning, not one ink. */
export const SCREEN_HUE_SPREAD_MIN = 0.2;
/**
 * A ripple is a wave, not grain: the colour at 3–8 px along a row or a column still follows the
 * colour here (the largest |autocorrelation| over those lags, either direction). Sensor noise,
 * independent from pixel to pixel and channel to channel, is just as round in hue and stronger in
 * colour than in brightness, but forgets itself within 2 px of the band's smoothing.
 */
export const SCREEN_COHERENCE_MIN = 0.3;
const COHERENCE_LAGS = [3, 4, 5, 6, 7, 8];
/** Share of blocks with such ripples from which the photo is taken of a screen. */
export const SCREEN_SHARE_MIN = 0.02;

export interface ScreenLook {
  /** Blocks measured. */
  blocks: number;
  /** Blocks that show colour ripples without brightness detail under them. */
  rippled: number;
  /** rippled / blocks, rounded to 1e-4. */
  share: number;
}

/** A box mean of radius r along rows then columns (edges clamped). */
function boxMean(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  const span = 2 * r + 1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let sum = 0;
    for (let x = -r; x <= r; x++) sum += src[row + Math.min(w - 1, Math.max(0, x))]!;
    for (let x = 0; x < w; x++) {
      tmp[row + x] = sum / span;
      sum += src[row + Math.min(w - 1, x + r + 1)]! - src[row + Math.max(0, x - r)]!;
    }
  }
  for (let x = 0; x < w; x++) {
    let sum = 0;
    for (let y = -r; y <= r; y++) sum += tmp[Math.min(h - 1, Math.max(0, y)) * w + x]!;
    for (let y = 0; y < h; y++) {
      out[y * w + x] = sum / span;
      sum += tmp[Math.min(h - 1, y + r + 1) * w + x]! - tmp[Math.max(0, y - r) * w + x]!;
    }
  }
  return out;
}

/** The band-passed channel, in place of the channel. */
function bandPass(channel: Float32Array, w: number, h: number): Float32Array {
  const fine = boxMean(channel, w, h, SCREEN_BAND_INNER);
  const coarse = boxMean(boxMean(channel, w, h, SCREEN_BAND_OUTER), w, h, SCREEN_BAND_OUTER);
  for (let i = 0; i < fine.length; i++) fine[i] = fine[i]! - coarse[i]!;
  return fine;
}

/** The largest |autocorrelation| of the two colour bands at COHERENCE_LAGS along rows or columns. */
function coherence(c1: Float32Array, c2: Float32Array, w: number, x0: number, y0: number): number {
  let energy = 0;
  for (let y = y0; y < y0 + SCREEN_BLOCK; y++) {
    for (let x = x0; x < x0 + SCREEN_BLOCK; x++) energy += c1[y * w + x]! ** 2 + c2[y * w + x]! ** 2;
  }
  let best = 0;
  for (const lag of COHERENCE_LAGS) {
    let alongRows = 0;
    let alongColumns = 0;
    for (let y = y0; y < y0 + SCREEN_BLOCK - lag; y++) {
      for (let x = x0; x < x0 + SCREEN_BLOCK - lag; x++) {
        const i = y * w + x;
        alongRows += c1[i]! * c1[i + lag]! + c2[i]! * c2[i + lag]!;
        alongColumns += c1[i]! * c1[i + lag * w]! + c2[i]! * c2[i + lag * w]!;
      }
    }
    // Against the energy of as many pixels as there were pairs, so that a longer lag is not penalised.
    const pairs = ((SCREEN_BLOCK - lag) * (SCREEN_BLOCK - lag)) / (SCREEN_BLOCK * SCREEN_BLOCK);
    best = Math.max(best, -alongRows / pairs, -alongColumns / pairs);
  }
  return energy > 0 ? best / energy : 0;
}

/** The look at a decode (RGB or RGBA, any size; grey images have no colour and show no ripple). */
export function lookForScreen(image: PixelImage): ScreenLook {
  const small = boxShrinkTo(image, SCREEN_LONG_SIDE);
  const { width: w, height: h, channels, data } = small;
  const bw = Math.floor(w / SCREEN_BLOCK);
  const bh = Math.floor(h / SCREEN_BLOCK);
  if (channels < 3 || bw === 0 || bh === 0) return { blocks: bw * bh, rippled: 0, share: 0 };
  const n = w * h;
  const luma = new Float32Array(n);
  const redGreen = new Float32Array(n);
  const blueYellow = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = data[i * channels]!;
    const g = data[i * channels + 1]!;
    const b = data[i * channels + 2]!;
    luma[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    redGreen[i] = r - g;
    blueYellow[i] = b - (r + g) / 2;
  }
  const y = bandPass(luma, w, h);
  const c1 = bandPass(redGreen, w, h);
  const c2 = bandPass(blueYellow, w, h);
  const lumaEnergy = new Float64Array(bw * bh);
  const chroma = new Float64Array(bw * bh);
  const spread = new Float64Array(bw * bh);
  const area = SCREEN_BLOCK * SCREEN_BLOCK;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      let ey = 0;
      let s11 = 0;
      let s22 = 0;
      let s12 = 0;
      for (let yy = by * SCREEN_BLOCK; yy < (by + 1) * SCREEN_BLOCK; yy++) {
        for (let xx = bx * SCREEN_BLOCK; xx < (bx + 1) * SCREEN_BLOCK; xx++) {
          const i = yy * w + xx;
          ey += y[i]! * y[i]!;
          s11 += c1[i]! * c1[i]!;
          s22 += c2[i]! * c2[i]!;
          s12 += c1[i]! * c2[i]!;
        }
      }
      const k = by * bw + bx;
      lumaEnergy[k] = ey / area;
      const trace = (s11 + s22) / area;
      const det = (s11 * s22 - s12 * s12) / (area * area);
      const half = Math.sqrt(Math.max(0, (trace * trace) / 4 - det));
      chroma[k] = trace;
      spread[k] = (trace / 2 - half) / (trace / 2 + half + 1e-9);
    }
  }
  let rippled = 0;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const k = by * bw + bx;
      if (chroma[k]! < SCREEN_CHROMA_MIN || spread[k]! < SCREEN_HUE_SPREAD_MIN) continue;
      let detail = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const ny = by + dy;
          const nx = bx + dx;
          if (ny >= 0 && ny < bh && nx >= 0 && nx < bw) detail = Math.max(detail, lumaEnergy[ny * bw + nx]!);
        }
      }
      if (chroma[k]! / (detail + 4) < SCREEN_LUMA_RATIO_MIN) continue;
      if (coherence(c1, c2, w, bx * SCREEN_BLOCK, by * SCREEN_BLOCK) >= SCREEN_COHERENCE_MIN) rippled++;
    }
  }
  const blocks = bw * bh;
  return { blocks, rippled, share: Math.round((rippled / blocks) * 1e4) / 1e4 };
}

/** Whether a look shows a screen's moiré over enough of the photo. */
export const isScreenPhoto = (look: ScreenLook) => look.share >= SCREEN_SHARE_MIN;
