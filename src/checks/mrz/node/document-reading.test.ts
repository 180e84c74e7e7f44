import { describe, expect, it } from 'vitest';
import {
  descriptorSimilarity,
  faceGuide,
  judgeFaces,
  selfieVerdict,
  type DetectedFace,
} from '@/checks/face/face-rules';
import { passportMrz } from '../../../../e2e/fixtures/mrz-lines';
import {
  claimMismatch,
  isExpired,
  mrzLines,
  mrzPage,
  mrzVerdict,
  parseArgentinePdf417,
  readsMrz,
  sameCountry,
  typeOfDocumentCode,
} from '@/checks/mrz/document-reading';

import { faceMatch } from '@/checks/face/node/face-match';
import { parseMrzLines } from './mrz';

const holder = {
  fullName: 'ALEX SPECIMEN',
  firstName: 'ALEX',
  lastName: 'SPECIMEN',
  documentNumber: 'X12345678',
  dateOfBirth: '1988-11-30',
  expiryDate: '2034-09-01',
  sex: 'F',
  nationality: 'GBR',
};

describe('MRZ lines and parsing', () => {
  it('keeps MRZ-like lines from OCR text and re-pads near misses to the TD3 length', () => {
    const [l1, l2] = passportMrz('GBR', holder);
    const text = `SPECIMEN PASSPORT\n${l1.slice(0, 43)}\n ${l2} \nfooter`;
    expect(mrzLines(text)).toEqual([l1, l2]);
    expect(mrzLines('no zone here\nNAME <')).toEqual([]);
    // OCR miscounts long filler runs: a name line short by more than two still ends in filler.
    expect(mrzLines(`${l1.slice(0, 39)}\n${l2}`)).toEqual([l1, l2]);
    // A data line short by more (no trailing filler) is left as read, to fail its check digits.
    const dropped = `${l2.slice(0, 29)}${l2.slice(-8)}`;
    expect(mrzLines(`${l1}\n${dropped}`)).toEqual([l1, dropped]);
    // Filler the OCR misread in the name field (from its first `<<<` on) is filler again, and parses.
    const misread = l1.replace(/<<<<<<<<$/, 'L<L<K<L<');
    expect(misread).not.toBe(l1);
    expect(mrzLines(`${misread}\n${l2}`)).toEqual([l1, l2]);
    expect(parseMrzLines(mrzLines(`${misread}\n${l2}`))).toMatchObject({ valid: true });
    // …and when it read more filler than there is (a camera frame's name line came out 47 long).
    const long = `${l1.replace(/<<<<<<<<$/, '')}<<<<LL<<<LL<L<`;
    expect(long.length).toBeGreaterThan(46);
    expect(mrzLines(`${long}\n${l2}`)).toEqual([l1, l2]);
    // A data line read a character too long, at its start or its end: the window whose check
    // digits hold.
    expect(mrzLines(`${l1}\nL${l2}`)).toEqual([l1, l2]);
    expect(mrzLines(`${l1}\n1${l2}K`)).toEqual([l1, l2]);
    expect(mrzLines(`${l1}\n${l2}1`)).toEqual([l1, l2]);
    // A data line with no filler (a visa's full optional data) beside a name line with some; text
    // lines of capitals and digits alone are no zone.
    const full = `${l2.slice(0, 28)}LONDON0AMS803085`;
    expect(mrzLines(`${l1}\n${full}`)).toEqual([l1, full]);
    expect(mrzLines(`${full}\n${full.replace('LONDON', 'MADRID')}`)).toEqual([]);
  });

  it('reads the person and the dates with their century; a wrong check digit is invalid', () => {
    const lines = passportMrz('GBR', holder);
    const read = parseMrzLines(lines);
    expect(read).toMatchObject({ found: true, valid: true, documentCode: 'P', issuingState: 'GBR' });
    if (!read.found || !read.valid) throw new Error('unreadable');
    expect(read.person).toEqual({ ...holder });
    const bad = [lines[0], `${lines[1].slice(0, 9)}0${lines[1].slice(10)}`];
    expect(parseMrzLines(bad)).toEqual({ found: true, valid: false, lines: bad });
    expect(parseMrzLines([])).toEqual({ found: false });
  });
});

describe('claims against what the document says', () => {
  it('compares ICAO states and document codes with the claimed country and type', () => {
    expect(sameCountry('GB', 'GBR')).toBe(true);
    expect(sameCountry('AR', 'GBR')).toBe(false);
    expect(sameCountry('ZZ', 'XYZ')).toBeUndefined();
    expect(typeOfDocumentCode('P<')).toBe('passport');
    expect(typeOfDocumentCode('ID')).toBe('national-id');
    expect(claimMismatch({ type: 'passport', country: 'AR' }, { country: 'GBR', type: 'passport' })).toBe(
      'countryMismatch',
    );
    expect(claimMismatch({ type: 'passport', country: 'AR' }, { country: 'ARG', type: 'national-id' })).toBe(
      'typeMismatch',
    );
    expect(
      claimMismatch({ type: 'passport', country: 'AR' }, { country: 'ARG', type: 'passport' }),
    ).toBeNull();
  });

  it('reads the MRZ on the side that carries it, judges it against the claim, and tells expiry', () => {
    expect(mrzPage('passport', 'GB')).toBe('front');
    expect(mrzPage('national-id', 'AR')).toBe('back');
    expect(mrzPage('national-id', 'US')).toBe('front');
    expect(mrzPage('proof-of-residency', 'GB')).toBeNull();
    const side = { requires: ['mrz'] as const, type: 'passport' as const, country: 'GB' };
    expect(readsMrz({ ...side, page: 'front' })).toBe(true);
    expect(readsMrz({ ...side, requires: [], page: 'front' })).toBe(false);
    expect(readsMrz({ ...side, type: 'national-id', country: 'ES', page: 'front' })).toBe(false);
    const read = parseMrzLines(passportMrz('GBR', holder));
    expect(mrzVerdict(read, { type: 'passport', country: 'GB' })).toBeNull();
    expect(mrzVerdict(read, { type: 'passport', country: 'AR' })).toBe('countryMismatch');
    expect(mrzVerdict(read, { type: 'national-id', country: 'GB' })).toBe('typeMismatch');
    expect(mrzVerdict({ found: false }, { type: 'passport', country: 'GB' })).toBe('noMrz');
    const visa = parseMrzLines([
      'VIUTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<',
      'L8988901C4XXX4009078F9612109<<<<<<<<',
    ]);
    expect(visa).toMatchObject({ found: true, valid: true, documentCode: 'VI' });
    expect(mrzVerdict(visa, { type: 'passport', country: 'GB' })).toBe('typeMismatch');
    expect(mrzVerdict({ found: true, valid: false, lines: [] }, { type: 'passport', country: 'GB' })).toBe(
      'badMrz',
    );
    const day = new Date('2030-05-10T12:00:00Z');
    expect(isExpired('2030-05-09', day)).toBe(true);
    expect(isExpired('2030-05-10', day)).toBe(false);
    expect(isExpired(undefined, day)).toBe(false);
  });

  it('parses a DNI PDF417 record and refuses any other payload', () => {
    const record = '00512345678@SPECIMEN@JUAN CARLOS@M@30123456@A@12/04/1985@15/06/2019@239';
    expect(parseArgentinePdf417(record)).toMatchObject({
      fullName: 'JUAN CARLOS SPECIMEN',
      documentNumber: '30123456',
      sex: 'M',
      dateOfBirth: '1985-04-12',
      issueDate: '2019-06-15',
    });
    expect(parseArgentinePdf417(record.replace('30123456', '3O12E456'))).toBeUndefined();
    expect(parseArgentinePdf417(record.replace('12/04/1985', '1985-04-12'))).toBeUndefined();
    expect(parseArgentinePdf417('https://example.org')).toBeUndefined();
  });
});

describe('face rules', () => {
  const face = (side: number, open = 0.55): DetectedFace => {
    // Eye landmarks only: lid gap = open × eye width (width 20 px).
    const mesh: DetectedFace['mesh'] = [];
    for (const [upper, lower, inner, outer] of [
      [159, 145, 33, 133],
      [386, 374, 362, 263],
    ]) {
      mesh[inner] = [0, 0];
      mesh[outer] = [20, 0];
      mesh[upper] = [10, 0];
      mesh[lower] = [10, 20 * open];
    }
    return { box: [0, 0, side, side], score: 0.6, mesh };
  };

  it('counts faces large enough, and tells closed eyes by the openness threshold', () => {
    expect(selfieVerdict(judgeFaces([], 700, 900))).toBe('noFace');
    expect(selfieVerdict(judgeFaces([face(30)], 700, 900))).toBe('noFace');
    expect(selfieVerdict(judgeFaces([face(300), face(250)], 700, 900))).toBe('multipleFaces');
    expect(selfieVerdict(judgeFaces([face(300, 0.2)], 700, 900))).toBe('closedEyes');
    expect(selfieVerdict(judgeFaces([face(300)], 700, 900))).toBeNull();
  });

  it('guides the live camera: no face, too far, several faces, ready', () => {
    const guide = (faces: DetectedFace[]) => faceGuide(judgeFaces(faces, 640, 480), 640, 480);
    expect(guide([])).toBe('noFace');
    expect(guide([face(80)])).toBe('tooFar');
    expect(guide([face(200), face(150)])).toBe('multipleFaces');
    expect(guide([face(200)])).toBe('ready');
  });

  it('scores the face match by cosine similarity; no portrait, no match', () => {
    expect(descriptorSimilarity([1, 0, 1], [1, 0, 1])).toBeCloseTo(1);
    // The same face twice is the document's own picture sent as the selfie: never a pass.
    expect(faceMatch({ faceDescriptor: [1, 0, 1] }, { faceDescriptor: [1, 0, 1] })).toEqual({
      score: 100,
      passed: false,
      samePortrait: true,
    });
    // Two photographs of one person: alike, never identical.
    expect(faceMatch({ faceDescriptor: [1, 0, 1] }, { faceDescriptor: [1, 0.15, 0.95] })).toMatchObject({
      passed: true,
    });
    expect(faceMatch({ faceDescriptor: [1, 0] }, { faceDescriptor: [0, 1] })).toEqual({
      score: 0,
      passed: false,
    });
    expect(faceMatch({ faceDescriptor: [1, 0] }, {})).toBeUndefined();
  });
});
