import { describe, expect, it } from 'vitest';
import {
  judgeSide,
  pdf417Pages,
  sameSideTwice,
  showsOwnSide,
  sideCarries,
  type SideClaim,
} from './document-side-rules';

const dni = (page: 'front' | 'back'): SideClaim => ({ type: 'national-id', country: 'AR', page });
const passport: SideClaim = { type: 'passport', country: 'AR', page: 'front' };
const usLicence = (page: 'front' | 'back'): SideClaim => ({ type: 'driving-license', country: 'US', page });
const nothing = { portrait: null, zone: null, barcode: null };

describe('which side carries what', () => {
  it('a DNI: the portrait on the front, the zone on the back, the barcode on either', () => {
    expect(sideCarries(dni('front'))).toEqual({ portrait: true, zone: false, barcode: true });
    expect(sideCarries(dni('back'))).toEqual({ portrait: false, zone: true, barcode: true });
  });

  it('a passport has one side with all it shows; a bill none of them', () => {
    expect(sideCarries(passport)).toEqual({ portrait: true, zone: true, barcode: false });
    expect(sideCarries({ type: 'proof-of-residency', country: 'MX', page: 'front' })).toEqual({
      portrait: false,
      zone: false,
      barcode: false,
    });
  });

  it("a US licence's barcode is on its back; elsewhere none is known", () => {
    expect(pdf417Pages('driving-license', 'us')).toEqual(['back']);
    expect(pdf417Pages('national-id', 'BR')).toEqual([]);
  });
});

describe('judgeSide', () => {
  it('a portrait where a back is expected is the other side', () => {
    expect(judgeSide(dni('back'), { ...nothing, portrait: true })).toBe('sideMismatch');
    expect(judgeSide(dni('back'), { ...nothing, portrait: false })).toBeNull();
  });

  it('a zone on the front of a card whose zone is on its back is the other side, even beside a portrait', () => {
    expect(judgeSide(dni('front'), { portrait: false, zone: true, barcode: false })).toBe('sideMismatch');
    expect(judgeSide(dni('front'), { portrait: true, zone: true, barcode: null })).toBe('sideMismatch');
  });

  it('a barcode names a side only where the type prints it on one side', () => {
    expect(judgeSide(usLicence('front'), { portrait: true, zone: null, barcode: true })).toBe('sideMismatch');
    expect(judgeSide(dni('front'), { portrait: true, zone: null, barcode: true })).toBeNull();
    expect(judgeSide(dni('back'), { portrait: false, zone: null, barcode: true })).toBeNull();
  });

  it('an identity front with none of its features is no document; with one unknown, undecided', () => {
    expect(judgeSide(dni('front'), { portrait: false, zone: false, barcode: false })).toBe('noDocument');
    expect(judgeSide(passport, { portrait: false, zone: false, barcode: false })).toBe('noDocument');
    expect(judgeSide(dni('front'), { portrait: false, zone: null, barcode: false })).toBe('unknown');
    expect(judgeSide(dni('front'), { portrait: true, zone: null, barcode: null })).toBeNull();
    expect(judgeSide(passport, { portrait: false, zone: true, barcode: false })).toBeNull();
  });

  it('backs and bills are judged by their outline alone', () => {
    expect(judgeSide(dni('back'), { portrait: false, zone: false, barcode: false })).toBeNull();
    expect(
      judgeSide(
        { type: 'proof-of-residency', country: 'MX', page: 'front' },
        {
          portrait: false,
          zone: false,
          barcode: false,
        },
      ),
    ).toBeNull();
  });
});

describe('the same side twice', () => {
  it('the same picture always; a picture merely alike only when it does not show its own side', () => {
    expect(sameSideTwice(0, dni('back'), { ...nothing, portrait: false })).toBe(true);
    expect(sameSideTwice(4, dni('back'), { ...nothing, portrait: false })).toBe(true);
    // A back looked at and showing no face is not the front, however alike the two pictures are.
    expect(sameSideTwice(8, dni('back'), { ...nothing, portrait: false })).toBe(false);
    expect(sameSideTwice(8, dni('back'), nothing)).toBe(true);
    expect(sameSideTwice(11, dni('back'), nothing)).toBe(false);
  });

  it("a side's own feature: a front's portrait, a back's zone, not a barcode both sides print", () => {
    expect(showsOwnSide(dni('front'), { ...nothing, portrait: true })).toBe(true);
    expect(showsOwnSide(dni('back'), { ...nothing, zone: true })).toBe(true);
    expect(showsOwnSide(dni('back'), { ...nothing, barcode: true })).toBe(false);
    expect(showsOwnSide(usLicence('back'), { ...nothing, barcode: true })).toBe(true);
    expect(showsOwnSide(dni('front'), { ...nothing, portrait: false })).toBe(false);
  });
});
