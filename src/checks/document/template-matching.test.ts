import { describe, expect, it } from 'vitest';
import { revisions, revisionsOf } from './layouts';
import { matchTemplate, pointOnDocument } from './template-matching';

const today = '2026-06-01';

describe('pointOnDocument', () => {
  it('maps the corners and centre of a quad in perspective onto the unit square', () => {
    const quad = [
      { x: 0.2, y: 0.1 },
      { x: 0.9, y: 0.2 },
      { x: 0.8, y: 0.9 },
      { x: 0.1, y: 0.7 },
    ];
    const round = (p: { x: number; y: number }) => ({ x: +p.x.toFixed(6) + 0, y: +p.y.toFixed(6) + 0 });
    expect(quad.map((p) => round(pointOnDocument(quad, p)))).toEqual([
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 1, y: 1 },
      { x: 0, y: 1 },
    ]);
    // A rectangle's centre is its diagonals' crossing, in perspective too.
    const square = [
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 1, y: 1 },
      { x: 0, y: 1 },
    ];
    expect(round(pointOnDocument(square, { x: 0.25, y: 0.75 }))).toEqual({ x: 0.25, y: 0.75 });
  });
});

describe('revisions', () => {
  it('every type and country the flows accept has revisions, ICAO layouts for the rest', () => {
    for (const [type, country] of [
      ['national-id', 'AR'],
      ['national-id', 'MX'],
      ['national-id', 'BR'],
      ['driving-license', 'BR'],
      ['passport', 'GB'],
      ['passport', 'PE'],
      ['national-id', 'DE'],
    ] as const) {
      expect(revisionsOf(type, country).length, `${type} ${country}`).toBeGreaterThan(0);
    }
    expect(revisionsOf('proof-of-residency', 'AR')).toEqual([]);
    expect(new Set(revisions.map((r) => r.id)).size).toBe(revisions.length);
  });
});

describe('matchTemplate', () => {
  it('finds a TD3 page: its shape, its portrait at the left, its zone', () => {
    const verdict = matchTemplate(
      'passport',
      'GB',
      { page: 'front', aspect: 1.42, portrait: { x: 0.2, y: 0.45 }, zone: 'TD3' },
      { today },
    );
    expect(verdict).toMatchObject({ judged: true, valid: true, score: 1, revision: { id: 'icao-td3' } });
  });

  it("a card-shaped passport is no TD3 page; a zone read overrules the outline's shape", () => {
    const seen = { page: 'front' as const, aspect: 1.59, portrait: { x: 0.17, y: 0.45 } };
    const card = matchTemplate('passport', 'GB', seen, { today });
    expect(card).toMatchObject({ judged: true, revision: null, valid: false });
    expect(card.judged && card.why).toBe('its shape match no known revision of passport (GB)');
    // A TD3 specimen's outline measured 1.69 (it stopped at the printed area): its zone decides.
    expect(matchTemplate('passport', 'TW', { ...seen, aspect: 1.69, zone: 'TD3' }, { today })).toMatchObject({
      revision: { id: 'icao-td3' },
      valid: true,
    });
  });

  it("an Argentine DNI's portrait at the right matches no revision; ICAO's mirrored cards are for countries without their own", () => {
    const seen = { page: 'front' as const, aspect: 1.6, portrait: { x: 0.8, y: 0.5 } };
    const ar = matchTemplate('national-id', 'AR', seen, { today });
    expect(ar).toMatchObject({ revision: null });
    expect(ar.judged && ar.why).toBe("the portrait's place match no known revision of national-id (AR)");
    expect(matchTemplate('national-id', 'DE', seen, { today })).toMatchObject({
      revision: { id: 'icao-td1' },
      valid: true,
    });
  });

  it('a DNI booklet is a known revision no longer valid; the card is valid', () => {
    const booklet = matchTemplate(
      'national-id',
      'AR',
      { page: 'front', aspect: 1.4, portrait: { x: 0.2, y: 0.4 } },
      { today },
    );
    expect(booklet).toMatchObject({ revision: { id: 'ar-dni-booklet' }, valid: false });
    const card = matchTemplate(
      'national-id',
      'AR',
      { page: 'front', aspect: 1.6, portrait: { x: 0.2, y: 0.4 }, barcode: true },
      { today },
    );
    expect(card).toMatchObject({ revision: { id: 'ar-dni-card-2012' }, valid: true, score: 1 });
  });

  it("the header tells the IFE's credential from the INE's; without it the valid one stands", () => {
    const seen = { page: 'front' as const, aspect: 1.6, portrait: { x: 0.2, y: 0.5 } };
    expect(matchTemplate('national-id', 'MX', seen, { today })).toMatchObject({
      revision: { id: 'mx-ine-2014' },
      valid: true,
    });
    expect(
      matchTemplate('national-id', 'MX', { ...seen, header: 'Instituto Federal Electoral' }, { today }),
    ).toMatchObject({ revision: { id: 'mx-ife' }, valid: false });
  });

  it('a revision past its last day is no longer valid', () => {
    const seen = { page: 'front' as const, aspect: 1.6, portrait: { x: 0.2, y: 0.5 } };
    expect(matchTemplate('national-id', 'BR', seen, { today: '2032-03-01' })).toMatchObject({
      revision: { id: 'br-cin-2022' },
    });
    const rg = revisions.find((r) => r.id === 'br-rg')!;
    expect(rg.validUntil).toBe('2032-02-28');
  });

  it('nothing seen: not judged', () => {
    expect(matchTemplate('passport', 'GB', { page: 'front', portrait: null }, { today })).toEqual({
      judged: false,
      reason: 'nothing of the layout could be seen',
    });
  });
});
