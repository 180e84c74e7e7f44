import { describe, expect, it } from 'vitest';
import { fieldStrip, type Placed } from './field-strips';

/** A page 900 rows high whose value lines are 20 rows high, fields 60 rows apart. */
const at = (key: Placed['key'], y0: number): Placed => ({ key, y0, y1: y0 + 20 });

describe('where a missing field is looked for again', () => {
  it('between the fields found before and after it in ICAO order', () => {
    const strip = fieldStrip('firstName', [at('lastName', 200), at('dateOfBirth', 320)], 900)!;
    expect(strip.y0).toBeGreaterThanOrEqual(200);
    expect(strip.y1).toBeLessThanOrEqual(340);
    expect(strip.y0).toBeLessThan(strip.y1);
  });

  it('a step of the fields pitch past the last found, not down to the page bottom', () => {
    const strip = fieldStrip('dateOfBirth', [at('lastName', 200), at('firstName', 260)], 900)!;
    expect(strip.y0).toBeGreaterThanOrEqual(270);
    expect(strip.y1).toBeLessThanOrEqual(420);
  });

  it('above the surname for the number, within the page', () => {
    const strip = fieldStrip('documentNumber', [at('lastName', 40), at('firstName', 100)], 900)!;
    expect(strip.y0).toBe(0);
    expect(strip.y1).toBeLessThanOrEqual(60);
  });

  it('its own line again where it was read close to the stated value', () => {
    expect(fieldStrip('lastName', [at('lastName', 200)], 900)).toEqual({ y0: 180, y1: 240 });
  });

  it('nowhere without a field found (no anchor: the page is not read again)', () => {
    expect(fieldStrip('lastName', [], 900)).toBeUndefined();
  });
});
