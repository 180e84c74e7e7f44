/**
 * A face covered by a mask or hidden behind dark lenses, from the pixels around the face mesh:
 * one definition of the measures and one rule for the service (`node/faces.ts`, the decode's RGB
 * values) and the wizard (`browser/face-detection.ts`, the canvas's RGBA around the face), so both
 * refuse the same selfies. Pure TypeScript: no model, no runtime.
 *
 * Everything is placed in the face's own frame, read from the mesh: the origin between the two
 * eyes' centres (the mean of each eye's contour), x along the line joining them, y down the face,
 * one unit the distance between the eyes. Colours are compared as chromaticity (each channel over
 * R + G + B, so light and shade cancel) in opponent axes (r − g, g − b): skin of any tone lies
 * along one direction of that plane (orange), at a saturation of its own; a surgical mask, a black
 * or grey cloth, a blue or green one, a lens, leaves it.
 *
 * - Mask: the nose (tip and wings) and the mouth (lips, upper lip, chin) compared with the skin of
 *   the eye band (between the eyebrows and under both eyes), which no mask reaches and a cap, a
 *   hairnet or a fringe does not either (the forehead, which they cover, is left out): hue turned
 *   by more than MASK_HUE_TURN, saturation off by more than MASK_SATURATION_RATIO, or light off by
 *   more than MASK_LUMINANCE_RATIO. Each as a share of its limit; the score is the larger share of
 *   the two regions' least covered one (both must be covered: a beard changes the mouth, never the
 *   nose). When the eye band itself is grey (a black-and-white photo, a cast that drains the skin)
 *   colour says nothing and light alone is compared.
 * - Sunglasses: a disc round each eye (the eye's own opening left out) holds almost no pixel of
 *   skin colour, is much darker than the skin and no more colourful, where the skin is taken from
 *   the forehead, the nose and the cheeks, whichever of them the discs resemble most (a cap, a
 *   mask or a fringe covers one or two of them, never all three as the lenses cover the eyes),
 *   and a grey one (black hair, a grey cap) only in a photo without colour.
 */

/** Pixels of the analysed image or of a region of it (`left`, `top`: its origin in the image). */
export interface CoverPixels {
  data: ArrayLike<number>;
  width: number;
  height: number;
  /** 3 (RGB) or 4 (RGBA; alpha ignored). */
  channels: number;
  left?: number;
  top?: number;
}

/** What the rule reads of one face (rounded to 3 decimals for the facts and the benchmark). */
export interface FaceCover {
  /** How far the nose and the mouth are from the eye band's skin; covered from MASK_MIN_SCORE. */
  maskScore: number;
  /** Share of skin-coloured pixels round the eyes (the eye that shows more, against the best-matching skin). */
  lensSkinShare: number;
  /** Median light round the eyes over the brightest skin reference's. */
  lensLuminance: number;
  /** Colourfulness round the eyes over the most colourful skin reference's. */
  lensChroma: number;
}

/*
 * Thresholds, from `npm run bench:accuracy -- the eval set of bench:accuracy face-cover` (2026-11-28), with
 * ../../eval-extra/faces measured apart as a set never used to set them (masks caught there 35 of
 * 55, 10 of the others not found as a face by the detector; good selfies refused 0 of 121).
 * Mask score on the eval set of bench:accuracy: good selfies 0.01–0.71 (65 photos, median 0.25), clear eyeglasses
 * 0.03–0.59 (15), masks 1.28–5.99 (23 of 24 found a face; median 3.5); the limits of each
 * deviation were set where no good selfie came near (hue 0.12 rad at most of 0.5, saturation ×1.76
 * of ×2.2, light ÷3.1 of ÷4), and the score's mark halfway-ish between 0.71 and 1.28.
 */
/** Hue turn (radians, in the opponent plane) of a covered region from the eye band's skin. */
export const MASK_HUE_TURN = 0.5;
/** Saturation ratio (either way) of a covered region to the eye band's skin. */
export const MASK_SATURATION_RATIO = 2.2;
/** Light ratio (either way) of a covered region to the eye band's skin. */
export const MASK_LUMINANCE_RATIO = 4;
/** Below this chroma (opponent magnitude) the eye band is grey and only light is compared. */
export const GREY_SKIN_MAX_CHROMA = 0.04;
/** A mask score from which the nose and the mouth count as covered. */
export const MASK_MIN_SCORE = 1;
/*
 * Sunglasses on the eval set of bench:accuracy: the discs round the eyes hold 46–100 % skin-coloured pixels on
 * good selfies and 46–100 % with clear eyeglasses, 2 % and 17 % behind the two pairs of dark
 * lenses, whose light is 14 % and 30 % of the skin's (good selfies 28 % and more): the second pair
 * is caught by a hair. On ../../eval-extra/faces (35 sunglasses, mostly web thumbnails under
 * 600 px, never used to set these marks) only 9 are caught as sunglasses and 12 more refused as a
 * mask (the lenses hide the mask's reference); clear eyeglasses refused there: 2 of 26 (an
 * optometrist's trial frame, and thick black rims read as lenses). A weak measure: lenses whose
 * disc reaches skin past them, or mirrored ones as bright as skin, pass.
 */
/** Most skin-coloured share round the eyes (the eye that shows more) for lenses. */
export const SUNGLASSES_MAX_SKIN_SHARE = 0.2;
/** Most light round the eyes, over the skin's, for lenses. */
export const SUNGLASSES_MAX_LUMINANCE = 0.3;
/** Most colour round the eyes, over the skin's, for lenses (a cap and a mask both white leave skin there, far more colourful than either). */
export const SUNGLASSES_MAX_CHROMA = 2;

/** A pixel in the face's terms: luma, and chromaticity r and g (b is what is left). */
type Sample = [luma: number, r: number, g: number];
interface Colour {
  luma: number;
  r: number;
  g: number;
}

// Facemesh's eye contours (16 points each) and the points the regions hang on.
const LEFT_EYE = [33, 7, 163, 144, 145, 153, 154, 155, 133, 173, 157, 158, 159, 160, 161, 246];
const RIGHT_EYE = [263, 249, 390, 373, 374, 380, 381, 382, 362, 398, 384, 385, 386, 387, 388, 466];
const NOSE = [1, 98, 327] as const;
const MOUTH = [0, 17, 200, 61, 291, 164] as const;
const NOSE_BRIDGE = [4] as const;
const CHEEKS = [205, 425] as const;

type Mesh = readonly (readonly [number, number, number?])[];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/** Median of each component: a region's colour. */
function colourOf(samples: Sample[]): Colour | undefined {
  if (samples.length === 0) return undefined;
  return {
    luma: median(samples.map((s) => s[0])),
    r: median(samples.map((s) => s[1])),
    g: median(samples.map((s) => s[2])),
  };
}

/** Opponent axes of a chromaticity: (r − g, g − b). */
const opponent = ({ r, g }: { r: number; g: number }): [number, number] => [r - g, g - (1 - r - g)];

/** Hue turn (radians) and saturation ratio of a colour against a reference colour. */
function against(colour: { r: number; g: number }, reference: { r: number; g: number }) {
  const [a, b] = opponent(colour);
  const [c, d] = opponent(reference);
  const scale = c * c + d * d;
  const along = (a * c + b * d) / scale;
  const across = (b * c - a * d) / scale;
  return { turn: Math.atan2(across, along), ratio: Math.hypot(along, across) };
}

const chroma = (colour: { r: number; g: number }) => Math.hypot(...opponent(colour));

/** How far a region's colour is from the skin's, each deviation as a share of its limit. */
function deviation(region: Colour, skin: Colour) {
  const light = Math.abs(Math.log(region.luma / skin.luma)) / Math.log(MASK_LUMINANCE_RATIO);
  if (chroma(skin) < GREY_SKIN_MAX_CHROMA) return light;
  const { turn, ratio } = against(region, skin);
  return Math.max(
    Math.abs(turn) / MASK_HUE_TURN,
    Math.abs(Math.log(ratio)) / Math.log(MASK_SATURATION_RATIO),
    light,
  );
}

/** Whether one pixel has the skin's colour (as `deviation` measures, per pixel, light within ÷3 to ×2.5). */
function skinLike(skin: Colour) {
  const grey = chroma(skin) < GREY_SKIN_MAX_CHROMA;
  return (s: Sample) => {
    if (s[0] < skin.luma * 0.35 || s[0] > skin.luma * 2.5) return false;
    if (grey) return true;
    const { turn, ratio } = against({ r: s[1], g: s[2] }, skin);
    return (
      Math.abs(turn) < MASK_HUE_TURN && ratio > 1 / MASK_SATURATION_RATIO && ratio < MASK_SATURATION_RATIO
    );
  };
}

function inPolygon(x: number, y: number, polygon: readonly (readonly number[])[]) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Least samples a region needs (a face too close to the edge leaves its regions empty). */
const MIN_SAMPLES = 12;

/**
 * The cover measures of one face (its mesh in the analysed image's pixels), or undefined when the
 * mesh lacks the points or the regions fall outside the pixels given.
 */
export function measureFaceCover(pixels: CoverPixels, mesh: Mesh): FaceCover | undefined {
  const { data, width, height, channels } = pixels;
  const left = pixels.left ?? 0;
  const top = pixels.top ?? 0;
  const needed = [...LEFT_EYE, ...RIGHT_EYE, ...NOSE, ...MOUTH, ...NOSE_BRIDGE, ...CHEEKS];
  if (needed.some((i) => !mesh[i])) return undefined;
  const centre = (ids: readonly number[]) => {
    let x = 0;
    let y = 0;
    for (const i of ids) {
      x += mesh[i][0];
      y += mesh[i][1];
    }
    return [x / ids.length, y / ids.length] as const;
  };
  const [leftEye, rightEye] = [centre(LEFT_EYE), centre(RIGHT_EYE)];
  const unit = Math.hypot(rightEye[0] - leftEye[0], rightEye[1] - leftEye[1]);
  if (!(unit > 0)) return undefined;
  // x from the image's left eye to its right one, y turned a quarter clockwise (down the face).
  const sign = leftEye[0] <= rightEye[0] ? 1 : -1;
  const ux = ((rightEye[0] - leftEye[0]) / unit) * sign;
  const uy = ((rightEye[1] - leftEye[1]) / unit) * sign;
  const [mx, my] = [(leftEye[0] + rightEye[0]) / 2, (leftEye[1] + rightEye[1]) / 2];
  const inImage = (fx: number, fy: number) =>
    [mx + (ux * fx - uy * fy) * unit, my + (uy * fx + ux * fy) * unit] as const;

  const sample = (x: number, y: number): Sample | undefined => {
    const px = Math.round(x) - left;
    const py = Math.round(y) - top;
    if (px < 0 || py < 0 || px >= width || py >= height) return undefined;
    const o = (py * width + px) * channels;
    const [R, G, B] = [data[o], data[o + 1], data[o + 2]];
    const sum = R + G + B + 1;
    return [(77 * R + 150 * G + 29 * B) / 256, R / sum, G / sum];
  };
  /** Samples of a disc (centre in image pixels, radius in eye distances), about 8 a radius each way. */
  const disc = (cx: number, cy: number, radius: number, skip?: (x: number, y: number) => boolean) => {
    const r = radius * unit;
    const step = Math.max(1, r / 8);
    const out: Sample[] = [];
    for (let dy = -r; dy <= r; dy += step) {
      for (let dx = -r; dx <= r; dx += step) {
        if (dx * dx + dy * dy > r * r || skip?.(cx + dx, cy + dy)) continue;
        const s = sample(cx + dx, cy + dy);
        if (s) out.push(s);
      }
    }
    return out;
  };
  const inFrame = (fx: number, fy: number, radius: number) => disc(...inImage(fx, fy), radius);
  const atPoints = (ids: readonly number[], radius: number) =>
    ids.flatMap((i) => disc(mesh[i][0], mesh[i][1], radius));

  // The eye band: between the eyebrows, and under each eye.
  const eyeBand = colourOf([
    ...inFrame(0, -0.12, 0.1),
    ...inFrame(-0.48, 0.2, 0.09),
    ...inFrame(0.48, 0.2, 0.09),
  ]);
  const noseSamples = [...disc(mesh[1][0], mesh[1][1], 0.07), ...atPoints([98, 327], 0.05)];
  const mouthSamples = [
    ...atPoints([0, 17, 61, 291], 0.06),
    ...disc(mesh[200][0], mesh[200][1], 0.08),
    ...disc(mesh[164][0], mesh[164][1], 0.06),
  ];
  // Round each eye, its opening left out: where a lens sits.
  const around = (ids: readonly number[], [cx, cy]: readonly [number, number]) => {
    const contour = ids.map((i) => [mesh[i][0], mesh[i][1]]);
    return disc(cx, cy, 0.24, (x, y) => inPolygon(x, y, contour));
  };
  const lenses = [around(LEFT_EYE, leftEye), around(RIGHT_EYE, rightEye)];
  const candidates = [
    colourOf(inFrame(0, -0.6, 0.15)),
    colourOf([...atPoints(NOSE_BRIDGE, 0.06), ...disc(mesh[1][0], mesh[1][1], 0.06)]),
    colourOf(atPoints(CHEEKS, 0.08)),
  ].filter((c): c is Colour => c !== undefined && c.luma > 0);
  // Black hair or a grey cap on the forehead is no skin to compare lenses with; only in a grey
  // photo (no colourful candidate at all) is light all there is.
  const colourful = candidates.filter((c) => chroma(c) >= GREY_SKIN_MAX_CHROMA);
  const references = colourful.length > 0 ? colourful : candidates;
  const regions = [noseSamples, mouthSamples, ...lenses];
  if (
    !eyeBand ||
    !(eyeBand.luma > 0) ||
    references.length === 0 ||
    regions.some((r) => r.length < MIN_SAMPLES)
  )
    return undefined;

  const nose = deviation(colourOf(noseSamples)!, eyeBand);
  const mouth = deviation(colourOf(mouthSamples)!, eyeBand);
  const share = (samples: Sample[], test: (s: Sample) => boolean) =>
    samples.filter(test).length / samples.length;
  const lensSkinShare = Math.max(
    ...references.map((skin) => Math.max(...lenses.map((l) => share(l, skinLike(skin))))),
  );
  const lens = colourOf(lenses.flat())!;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    maskScore: round(Math.min(nose, mouth)),
    lensSkinShare: round(lensSkinShare),
    lensLuminance: round(lens.luma / Math.max(...references.map((c) => c.luma))),
    lensChroma: round(chroma(lens) / Math.max(1e-6, ...references.map(chroma))),
  };
}

export type FaceCoverVerdict = 'sunGlasses' | 'maskDetected' | null;

/**
 * The cover rule: lenses first (the mask's reference is the eye band, which lenses hide), then a
 * mask. A face whose regions could not be measured is not judged.
 */
export function faceCoverVerdict(cover: FaceCover | undefined): FaceCoverVerdict {
  if (!cover) return null;
  if (
    cover.lensSkinShare < SUNGLASSES_MAX_SKIN_SHARE &&
    cover.lensLuminance < SUNGLASSES_MAX_LUMINANCE &&
    cover.lensChroma < SUNGLASSES_MAX_CHROMA
  )
    return 'sunGlasses';
  return cover.maskScore >= MASK_MIN_SCORE ? 'maskDetected' : null;
}
