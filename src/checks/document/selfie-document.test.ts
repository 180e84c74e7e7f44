import { describe, expect, it } from 'vitest';
import {
  CLOSE_FACE_MIN_SIDE_SHARE,
  FAR_FACE_PRINT_MIN_CHARS,
  selfieShowsDocument,
  SELFIE_PRINT_MIN_CHARS,
  type SelfieLook,
} from './selfie-document';

const card = [
  { x: 0.2, y: 0.3 },
  { x: 0.8, y: 0.3 },
  { x: 0.8, y: 0.7 },
  { x: 0.2, y: 0.7 },
];
const look = (over: Partial<SelfieLook>): SelfieLook => ({
  width: 1280,
  height: 960,
  outline: 'none',
  textChars: 0,
  ...over,
});

describe('selfieShowsDocument', () => {
  it("refuses a document's print, with or without a face", () => {
    expect(selfieShowsDocument(look({ outline: 'fullFrame', textChars: SELFIE_PRINT_MIN_CHARS }))).toBe(
      'print',
    );
    // A passport page filling the frame: its portrait spans under two thirds of the shorter side.
    const portrait = { x: 0.05, y: 0.2, w: 0.3, h: 0.6 };
    expect(
      selfieShowsDocument(look({ outline: 'fullFrame', textChars: SELFIE_PRINT_MIN_CHARS, face: portrait })),
    ).toBe('print');
  });

  it("keeps a face at a selfie's distance in front of print (a bead curtain, a blind)", () => {
    const side = CLOSE_FACE_MIN_SIDE_SHARE;
    const face = { x: 0.1, y: 0.05, w: (side * 960) / 1280, h: side };
    expect(
      selfieShowsDocument(look({ outline: 'fullFrame', textChars: 3 * SELFIE_PRINT_MIN_CHARS, face })),
    ).toBeNull();
  });

  it("refuses a face that is a small portrait on a document's outline with print", () => {
    const face = { x: 0.25, y: 0.4, w: 0.12, h: 0.16 };
    expect(selfieShowsDocument(look({ outline: 'framed', textChars: 30, quad: card, face }))).toBe(
      'portraitOnDocument',
    );
  });

  it('refuses a far face among the print of a document', () => {
    const face = { x: 0.4, y: 0.3, w: 0.15, h: 0.2 };
    expect(selfieShowsDocument(look({ outline: 'none', textChars: 24, face }))).toBe('farFaceWithPrint');
    // A paper copy at arm's length: its faint print reads under the finder's own mark.
    expect(selfieShowsDocument(look({ outline: 'none', textChars: FAR_FACE_PRINT_MIN_CHARS, face }))).toBe(
      'farFaceWithPrint',
    );
  });

  it('refuses a far face wholly inside a small card-shaped outline, with no print read', () => {
    const small = [
      { x: 0.13, y: 0.42 },
      { x: 0.66, y: 0.42 },
      { x: 0.67, y: 0.61 },
      { x: 0.11, y: 0.61 },
    ];
    const face = { x: 0.16, y: 0.47, w: 0.12, h: 0.07 };
    expect(selfieShowsDocument(look({ width: 576, height: 1024, cards: [small], face }))).toBe(
      'portraitOnCard',
    );
    // A close face is no card's portrait, whatever outline is around it.
    const close = { x: 0.2, y: 0.2, w: 0.5, h: 0.35 };
    expect(selfieShowsDocument(look({ width: 576, height: 1024, cards: [card], face: close }))).toBeNull();
    // A face reaching out of the outline is not printed on it.
    const across = { x: 0.6, y: 0.45, w: 0.12, h: 0.07 };
    expect(selfieShowsDocument(look({ width: 576, height: 1024, cards: [small], face: across }))).toBeNull();
  });

  it('keeps a close face, a face filling a frame, and a far face without print', () => {
    const close = { x: 0.3, y: 0.1, w: 0.4, h: 0.6 };
    expect(selfieShowsDocument(look({ outline: 'none', textChars: 36, face: close }))).toBeNull();
    const filling = { x: 0.22, y: 0.31, w: 0.5, h: 0.38 };
    expect(
      selfieShowsDocument(look({ outline: 'framed', textChars: 30, quad: card, face: filling })),
    ).toBeNull();
    const far = { x: 0.4, y: 0.3, w: 0.1, h: 0.13 };
    expect(selfieShowsDocument(look({ outline: 'none', textChars: 12, face: far }))).toBeNull();
    expect(selfieShowsDocument(look({ outline: 'none', textChars: 30 }))).toBeNull();
  });
});
