/**
 * How face detections are judged, shared by the embedded service (`src/checks/face/node/faces.ts`)
 * and the browser wizard (`src/features/wizard/checks`), so both refuse the same selfies. The model
 * runtime (@vladmandic/human) is loaded by each side; this file only holds plain data and rules.
 *
 * The eye and face-match thresholds come from real photos: `npm run bench:accuracy` on the dev set
 * `the eval set of bench:accuracy` (public photos of real people: 42 open-eyed single-person photos, 2 with closed
 * eyes, 1 wink, 5 groups; 84 faces of 17 people seen more than once and 17 seen once for the face
 * match). The detector's thresholds were set on the generated samples, which are drawn faces
 * (scripts/make-samples.ts): box score of a drawn face 0.22–0.79; a false detection on a
 * card's text measured 0.45 but only 34 px on a 630 px card (5 %), while faces measured 212–391 px.
 */

import { faceCoverVerdict, type FaceCover } from './face-cover';

/** Detector confidence below which a candidate box is ignored. */
export const FACE_MIN_CONFIDENCE = 0.2;
/** A face must span at least this share of the image's shorter side (drops text false positives). */
export const FACE_MIN_SIDE_SHARE = 0.1;
/**
 * Mean of both eyes' openness (lid gap over eye width, facemesh refined by the iris model) below
 * which the eyes count as closed. Dev set: open eyes 0.266–0.503 (median 0.371; the lowest are
 * smiles and a face turned aside), closed 0.137 and 0.173, a wink 0.275 (one eye 0.197, the other
 * 0.352: it passes). The limit sits halfway between closed and open (0.173 and 0.266). Drawn faces
 * read far wider eyes (0.49–0.64 open), so the drawn closed-eyes sample has wide, flat lids
 * (0.164). The former limit, 0.34, refused 9 of the 42 real open-eyed photos.
 */
export const EYES_CLOSED_MAX_OPENNESS = 0.22;
/*
 * Presentation-attack models (Human's `antispoof` and `liveness`, both in its models/): not used,
 * because on real photos they do not separate a person from a replay. Measured with `npm run
 * bench:liveness -- the eval set of bench:accuracy` (42 genuine photos of one person, each
 * replayed in memory on a phone screen with moiré, glare and a tilt, as a photo of a print, and
 * as a print of that screen; 2026-11-26). antispoof `real`: genuine 0.31–0.95 (median 0.56),
 * replays 0.37–0.88 (medians 0.58–0.65, higher than genuine): at the mark refusing ≤ 2 % of
 * genuine people (0.31) it catches none. liveness `live`: genuine 0.79–1.00 (median 0.99); at
 * 0.79 it catches 3 of 38 screen replays, 14 of 41 prints and 10 of 39 prints of a screen, while
 * a mark set at the lowest of 42 genuine scores would refuse some of the separate set's genuine
 * people. The proof of life is the active challenge instead (`../video/liveness-challenge.ts`).
 */

/**
 * Similarity (descriptorSimilarity: 1 − d²/2 of the Euclidean distance) of the face-match
 * descriptors (dlib's ResNet on the chip aligned on the mesh's eyes, nose and mouth corners, the
 * eyes refined by the iris model, averaged over the chip, the chip turned ±4° and the chip 5 %
 * larger: src/checks/face/node/face-recognition.ts, CHIP_ALIGNMENT and FACE_MATCH_VIEWS) from which
 * the selfie and the document portrait are the same person: the lowest mark with FAR ≤ 0.1 % on
 * the dev set's different-person pairs (bench:descriptors on the eval set of bench:accuracy, 2026-11-26,
 * `resnetChosenEuclidean`: 0.84151, 3 of 3414 pairs at or over 0.8416 (0.09 %); of the 156
 * same-person pairs (0.799–0.976, median 0.899) 5 are under it (3.2 %); equal error 1.3 % at
 * 0.810). Counted with the four umbrella-shoot photos `human-stock-teen-1…4`, which show one
 * woman but carry no id, as one person: as labelled, their six pairs are "different people" and
 * push the FAR ≤ 0.1 % mark to 0.888 (FRR 40 %). The closest different-people pairs left are
 * grimacing young women of one stock series; the weakest same-person pairs are grimaces of that
 * series and one actor's half-profile stills. Over 40 random splits of the people in halves, FRR
 * at FAR ≤ 0.1 % averages 3.4 % (better than the former scoring in 67 of 80 halves, worse in 2);
 * the former, the 33-point chip on the mesh without the iris model turned ±4° (mark 0.8462):
 * 7.1 % on the whole set, 7.2 % over the splits. Of that change, the iris model's eyes alone give
 * 7.2 → 4.8 % (`resnetIrisEuclidean`). Measured and not adopted: in bench:descriptors, the
 * mirror image averaged in (`resnetChosenMirroredEuclidean`: 7.1 %, splits 6.9 %), Human's faceres
 * fused by z-scores (`resnetChosenFaceres0.1`: 7.1 %, splits 6.2 %; weight 0.3: 14.7 %, 12.2 %),
 * photometric normalisation (grey world, stretch, equalisation), the cosine after subtracting the
 * drawn sample faces' mean, faceres-deep, mobileface, mobilefacenet; in a one-off script on the
 * same detections (not kept), more views (turns of ±8°, shifts of 3 px, scales 0.9–1.1, a
 * greyscale copy: none better over the splits) and the views weighted by their agreement with the
 * others (splits 3.3 %, within noise of 3.4 %).
 */
export const FACE_MATCH_MIN_SIMILARITY = 0.8416;
/**
 * From this similarity the selfie's face is the document's own printed portrait, not a second
 * picture of its holder (issue 35: the DNI's front sent as the selfie matched itself at 100 %). Two
 * photographs of one person never come this close: 0.976 at most over the eval set's 158 same-person
 * pairs (bench:accuracy, photos of one sitting among them); the product's drawn selfie samples
 * against the drawn portraits of its document samples 0.992–0.996, while one drawn portrait
 * against the same drawing printed on another sample document gives 0.9987–0.9997 and against
 * itself 1. A selfie whose face is the portrait cut out of the card and enlarged (0.995 on the DNI
 * sample) is not told by this; the selfie check's print rule refuses the card around it.
 */
export const SAME_PORTRAIT_MIN_SIMILARITY = 0.998;
/** Images are shrunk to this long side before detection (the detector itself works at 256 px). */
export const FACE_INPUT_LONG_SIDE = 1024;
/**
 * Most faces a document's photo may show: the holder's portrait and its ghost image. More is a
 * crowd (a mosaic of faces sent as a document), not a card.
 */
export const DOCUMENT_MAX_FACES = 2;
/**
 * Detector score from which a face on a claimed back counts as a portrait (the front's: `sideMismatch`).
 * A back's emblems, signatures and guilloches make weak faces: on the eval set of bench:accuracy's ID-card backs
 * (zone in TD1's shape) 0.20 (Swiss) and 0.21 (Macau), where the documents' printed portraits score
 * 0.59–0.91 (median ~0.82) and their ghost images 0.30–0.62; without it 2 of the 8 genuine backs
 * were refused as fronts. Halfway, rounded down.
 */
export const BACK_PORTRAIT_MIN_SCORE = 0.4;
/** Most faces the detector reports; two are enough to refuse, a few more keep the count honest. */
export const FACE_MAX_DETECTED = 5;

/**
 * The Human models a check uses; only these files are shipped or served. The face match's
 * descriptor is not Human's (see FACE_MATCH_MIN_SIMILARITY): the service runs dlib's ResNet on the
 * face mesh's chip (src/checks/face/node/face-recognition.ts); the browser needs no descriptor.
 */
export const FACE_MODELS = {
  detector: 'blazeface',
  mesh: 'facemesh',
  iris: 'iris',
} as const;

/**
 * Human configuration (a plain object: each side passes it to its own `new Human(...)`). Result
 * caching is off: a service compares unrelated images, and the cache would reuse a previous face.
 */
export function humanConfig(options: { modelBasePath: string; wasmPath: string }) {
  return {
    backend: 'wasm',
    modelBasePath: options.modelBasePath,
    wasmPath: options.wasmPath,
    debug: false,
    async: true,
    warmup: 'none',
    cacheSensitivity: 0,
    cacheModels: false,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: {
        modelPath: `${FACE_MODELS.detector}.json`,
        rotation: false,
        maxDetected: FACE_MAX_DETECTED,
        minConfidence: FACE_MIN_CONFIDENCE,
        skipFrames: 0,
        skipTime: 0,
        return: false,
      },
      mesh: { enabled: true, modelPath: `${FACE_MODELS.mesh}.json` },
      attention: { enabled: false },
      iris: { enabled: true, modelPath: `${FACE_MODELS.iris}.json`, skipFrames: 0, skipTime: 0 },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  };
}

/**
 * What each use of the detector needs, as per-call overrides of `humanConfig`'s models (the service
 * loads all four once and switches the unneeded ones off per image):
 * - selfie: detector, facemesh and iris. The iris model is what makes eye openness usable: without
 *   it, facemesh alone measured 0.24–0.37 for open eyes and 0.30 for closed ones (with it 0.53–0.62
 *   and 0.28). Facemesh also drops false detections: the detector alone kept a 0.21 box on the
 *   no-face selfie.
 * - count (a document's portrait, a liveness video's frame): detector and facemesh, for the face
 *   count alone; facemesh's confidence drops the boxes the detector finds on a card's text.
 * - descriptor (the face match): detector, facemesh and iris, then the descriptor network on the
 *   largest face's chip, aligned on the mesh's eyes, nose and mouth corners; the iris model's eye
 *   contours make that alignment surer (bench:descriptors: FRR at FAR ≤ 0.1 % over random people
 *   splits 7.2 → 4.8 % with the former 33-point chip and views). No send-input code needs a descriptor, so it is
 *   computed when the verification is processed, for the accepted selfie (or video frame) and
 *   document portrait only (src/service/face-descriptors.ts), never for a refused input, and off
 *   the send-input's answer. Facemesh also drops the boxes the detector finds on a card's text.
 * CPU per face on the dev set (bench:descriptors, one image at a time, 2026-11-26): detector +
 * facemesh ~40 ms, with the iris model ~50 ms; the ResNet descriptor ~25 ms a chip, ~95 ms for the
 * face match's four views (Human's faceres took ~100 ms).
 */
export type FaceUse = 'selfie' | 'count' | 'descriptor';
export const FACE_USE_MODELS: Record<FaceUse, { mesh: boolean; iris: boolean; descriptor: boolean }> = {
  selfie: { mesh: true, iris: true, descriptor: false },
  count: { mesh: true, iris: false, descriptor: false },
  descriptor: { mesh: true, iris: true, descriptor: true },
};

/** Per-call configuration (Human's `detect(input, config)`) switching off what a use does not need. */
export function faceUseConfig(use: FaceUse) {
  const models = FACE_USE_MODELS[use];
  return {
    face: {
      mesh: { enabled: models.mesh },
      iris: { enabled: models.iris },
    },
  };
}

/** What the rules need of one detected face (a subset of Human's FaceResult). */
export interface DetectedFace {
  /** x, y, width, height in pixels of the analysed image. */
  box: [number, number, number, number];
  score: number;
  mesh: [number, number, number?][];
  embedding?: number[];
}

export interface FaceJudgement {
  /** Faces large enough to count, largest first. */
  faces: DetectedFace[];
  /** Mean eye openness of the largest face, when the mesh has the eye landmarks. */
  eyeOpenness?: number;
  /** A mask or dark lenses on the largest face (`face-cover.ts`), when its pixels were measured. */
  cover?: FaceCover;
}

// Facemesh landmark indices: upper and lower lid, inner and outer corner of each eye.
const LEFT_EYE = [159, 145, 33, 133] as const;
const RIGHT_EYE = [386, 374, 362, 263] as const;

function openness(mesh: DetectedFace['mesh'], [upper, lower, inner, outer]: readonly number[]) {
  const [a, b, c, d] = [mesh[upper], mesh[lower], mesh[inner], mesh[outer]];
  if (!a || !b || !c || !d) return undefined;
  const width = Math.hypot(c[0] - d[0], c[1] - d[1]);
  return width > 0 ? Math.hypot(a[0] - b[0], a[1] - b[1]) / width : undefined;
}

/** Eye openness of a face: the mean of both eyes' lid gap over eye width. */
export function eyeOpenness(face: DetectedFace): number | undefined {
  const left = openness(face.mesh, LEFT_EYE);
  const right = openness(face.mesh, RIGHT_EYE);
  return left === undefined || right === undefined ? undefined : (left + right) / 2;
}

/** Keeps the faces that count (confident and large enough), largest first. */
export function judgeFaces(detected: DetectedFace[], width: number, height: number): FaceJudgement {
  const minSide = Math.min(width, height) * FACE_MIN_SIDE_SHARE;
  const faces = detected
    .filter((f) => f.score >= FACE_MIN_CONFIDENCE && Math.min(f.box[2], f.box[3]) >= minSide)
    .sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  const first = faces[0];
  const eyes = first ? eyeOpenness(first) : undefined;
  return eyes === undefined ? { faces } : { faces, eyeOpenness: eyes };
}

export type SelfieFaceVerdict =
  'noFace' | 'multipleFaces' | 'sunGlasses' | 'maskDetected' | 'closedEyes' | null;

/**
 * The selfie rule: exactly one face, not behind dark lenses, not covered by a mask, eyes open. The
 * lenses come before the eyes (the lids behind them are the mesh's guess) and before the mask (whose
 * reference skin is the eye band, which lenses hide).
 */
export function selfieVerdict(judgement: FaceJudgement): SelfieFaceVerdict {
  if (judgement.faces.length === 0) return 'noFace';
  if (judgement.faces.length > 1) return 'multipleFaces';
  const cover = faceCoverVerdict(judgement.cover);
  if (cover) return cover;
  if (judgement.eyeOpenness !== undefined && judgement.eyeOpenness < EYES_CLOSED_MAX_OPENNESS)
    return 'closedEyes';
  return null;
}

/**
 * The live camera's guide (never a refusal): a face whose box spans less than this share of the
 * frame's shorter side is asked to come closer. The selfie samples' faces span 30–42 %; a face at
 * a quarter of the frame still leaves the detector and the descriptor ~250 px at 1080p.
 */
export const GUIDE_FACE_MIN_SIDE_SHARE = 0.25;

export type FaceGuide = 'noFace' | 'tooFar' | 'multipleFaces' | 'sunglasses' | 'mask' | 'ready';

/**
 * What the live camera tells the person about the faces it sees (the selfie rule, plus distance):
 * a face near enough to judge behind lenses or a mask is asked to take them off.
 */
export function faceGuide(judgement: FaceJudgement, width: number, height: number): FaceGuide {
  const [first] = judgement.faces;
  if (!first) return 'noFace';
  if (judgement.faces.length > 1) return 'multipleFaces';
  const side = Math.min(first.box[2], first.box[3]);
  if (side < Math.min(width, height) * GUIDE_FACE_MIN_SIDE_SHARE) return 'tooFar';
  const cover = faceCoverVerdict(judgement.cover);
  return cover === 'sunGlasses' ? 'sunglasses' : cover === 'maskDetected' ? 'mask' : 'ready';
}

/** Cosine similarity of two face descriptors (−1…1): the face match's score before 2026-11-26, kept as bench:descriptors' baseline. */
export function descriptorCosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * The face match's similarity of two descriptors: 1 − d²/2 of dlib's own Euclidean distance d, so
 * that it reads like a cosine (equal to it for unit-length descriptors, 1 for the same face) while
 * keeping the length that dlib's descriptors carry: on the dev set the distance separates people
 * better than the cosine (see FACE_MATCH_MIN_SIMILARITY).
 */
export function descriptorSimilarity(a: readonly number[], b: readonly number[]): number {
  let squared = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) squared += (a[i] - b[i]) ** 2;
  return 1 - squared / 2;
}
