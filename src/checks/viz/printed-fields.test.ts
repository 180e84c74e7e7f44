import { describe, expect, it } from 'vitest';
import { layoutsFor, type DocumentLayout } from '@/checks/document/field-layouts';
import {
  findStated,
  patternReading,
  printedVerdict,
  readField,
  sameName,
  sameNumber,
  type FieldResult,
  type OcrLine,
  zoneLike,
} from './printed-fields';
import { cpfHolds, isoDate, isValidDate, parsePrintedDate, sameDate } from './printed-values';

const layout = layoutsFor('passport', 'AR', 'front')[0]!;
const field = (l: DocumentLayout, key: string) => l.fields.find((f) => f.key === key)!;
const word = (text: string, x0: number, y0: number, h = 20, confidence = 90) => ({
  text,
  confidence,
  x0,
  y0,
  x1: x0 + text.length * h * 0.6,
  y1: y0 + h,
});

describe('printed dates', () => {
  it('reads the forms documents print, and tells an impossible date', () => {
    expect(parsePrintedDate('12/04/1985')).toEqual({ day: 12, month: 4, year: 1985, fourDigitYear: true });
    expect(parsePrintedDate('12.08.1964')).toMatchObject({ day: 12, month: 8, year: 1964 });
    expect(parsePrintedDate('12 AUG/AOUT 74')).toMatchObject({ day: 12, month: 8, year: 74 });
    expect(parsePrintedDate('20 Juin/Jun 1978')).toMatchObject({ day: 20, month: 6, year: 1978 });
    expect(parsePrintedDate('07 JUN 1984')).toMatchObject({ day: 7, month: 6 });
    expect(parsePrintedDate('15/02/1990 · 2031')).toMatchObject({ day: 15, month: 2, year: 1990 });
    expect(parsePrintedDate('SPECIMEN')).toBeUndefined();
    expect(isValidDate(parsePrintedDate('31/02/1985')!)).toBe(false);
    expect(isValidDate(parsePrintedDate('29/02/1984')!)).toBe(true);
    expect(sameDate(parsePrintedDate('12 AUG/AOUT 74')!, '1974-08-12')).toBe(true);
    expect(sameDate(parsePrintedDate('12/04/1985')!, '1985-04-13')).toBe(false);
    expect(isoDate('07 JUN 84', new Date('2026-01-01'))).toBe('1984-06-07');
  });
});

describe('names and numbers', () => {
  it('compares names without accents, spacing or the transliteration a zone uses', () => {
    expect(sameName('MUÑOZ', 'MUNOZ')).toBe('equal');
    expect(sameName('GONÇALVES', 'GONCALVES')).toBe('equal');
    expect(sameName('MÜLLER', 'MUELLER')).toBe('equal');
    expect(sameName('DE LA CRUZ', 'DELACRUZ')).toBe('equal');
    expect(sameName('SPEClMEN', 'SPECIMEN')).toBe('close');
    expect(sameName('FALSIFICADO', 'SPECIMEN')).toBe('different');
    expect(sameNumber('30.123.456', '30123456')).toBe(true);
    expect(sameNumber('L898902C3', 'L8989O2C3')).toBe(true);
  });

  it('holds a number to its pattern and check digits, look-alikes swapped', () => {
    const mx = layoutsFor('national-id', 'MX', 'front')[0]!;
    expect(patternReading(field(mx, 'curp'), 'MUEM900215MDFSJROS')).toBe('MUEM900215MDFSJR08');
    expect(patternReading(field(mx, 'curp'), 'MUEM900215MDFSJR04')).toBeUndefined();
    expect(cpfHolds('529.982.247-25')).toBe(true);
    expect(cpfHolds('529.982.247-26')).toBe(false);
  });
});

describe('readField', () => {
  const surname = field(layout, 'lastName');
  it('takes the value under its label, in its column', () => {
    const lines: OcrLine[] = [
      { words: [word('Surname', 20, 10, 16)] },
      { words: [word('SPECIMEN', 22, 34, 24), word('2', 500, 20, 40, 30)] },
    ];
    expect(readField(lines, surname)).toEqual({ state: 'read', value: 'SPECIMEN', confidence: 90 });
  });

  it('says so when the label is there and nothing under it, and when neither is', () => {
    const onlyLabel = readField([{ words: [word('Surname', 20, 10, 16)] }], surname);
    expect(onlyLabel).toMatchObject({ state: 'labelOnly', labelBottom: 26 });
    expect(readField([{ words: [word('XQZ', 20, 10)] }], surname)).toEqual({ state: 'unread' });
  });
});

describe('printedVerdict', () => {
  const stated = { lastName: 'SPECIMEN', dateOfBirth: '1985-04-12', documentNumber: 'AAA123456' };
  const read = (value: string, confidence = 90) => ({ state: 'read' as const, value, confidence });
  const results = (overrides: Partial<Record<string, FieldResult>>): FieldResult[] =>
    (['lastName', 'firstName', 'dateOfBirth', 'documentNumber'] as const).map(
      (key) =>
        overrides[key] ?? {
          key,
          reading: read(
            {
              lastName: 'SPECIMEN',
              firstName: 'JUAN',
              dateOfBirth: '12/04/1985',
              documentNumber: 'AAA123456',
            }[key],
          ),
        },
    );

  it('passes a print that agrees with the zone', () => {
    expect(printedVerdict(layout, results({}), stated, true)).toBeNull();
  });

  it('names the first rule a field breaks: blank, then impossible, then different', () => {
    const blank: FieldResult = {
      key: 'dateOfBirth',
      reading: { state: 'labelOnly', labelBottom: 20, labelHeight: 16 },
      blank: true,
    };
    const impossible: FieldResult = { key: 'dateOfBirth', reading: read('31/02/1985') };
    const changed: FieldResult = { key: 'lastName', reading: read('FALSIFICADO') };
    expect(printedVerdict(layout, results({ dateOfBirth: blank, lastName: changed }), stated, true)).toEqual({
      code: 'missingFields',
      fields: ['dateOfBirth'],
    });
    expect(printedVerdict(layout, results({ dateOfBirth: impossible }), stated, true)?.code).toBe(
      'wrongFormat',
    );
    expect(printedVerdict(layout, results({ lastName: changed }), stated, true)?.code).toBe('badText');
  });

  it('refuses nothing on what was not read, or read unsure, or read otherwise the second time', () => {
    const unread: FieldResult = { key: 'dateOfBirth', reading: { state: 'unread' } };
    const inked: FieldResult = {
      key: 'dateOfBirth',
      reading: { state: 'labelOnly', labelBottom: 20, labelHeight: 16 },
      blank: false,
    };
    const unsure: FieldResult = { key: 'lastName', reading: read('FALSIFICADO', 40) };
    const notAgain: FieldResult = { key: 'lastName', reading: read('FALSIFICADO'), second: read('SPECIMEN') };
    for (const r of [unread, inked, unsure, notAgain])
      expect(printedVerdict(layout, results({ [r.key]: r }), stated, true)).toBeNull();
  });

  it('says noText only where nothing at all was read and no zone or barcode either', () => {
    const none = results({}).map((r) => ({ ...r, reading: { state: 'unread' as const } }));
    expect(printedVerdict(layout, none, {}, false)).toEqual({ code: 'noText' });
    expect(printedVerdict(layout, none, stated, true)).toBeNull();
  });
});

describe('a page read by its labels', () => {
  it('refuses nothing: a label may be paired with the next column', () => {
    const icao = layoutsFor('passport', 'CO', 'front')[0]!;
    const changed: FieldResult = {
      key: 'lastName',
      reading: { state: 'read', value: 'FALSIFICADO', confidence: 95 },
    };
    expect(printedVerdict(icao, [changed], { lastName: 'SPECIMEN' }, true)).toBeNull();
  });
});

describe("the zone's values found in the print", () => {
  const line = (...texts: string[]): OcrLine => ({ words: texts.map((t, i) => word(t, i * 200, 0)) });
  const zone = { lastName: 'MUSTERMANN', documentNumber: 'CA000000', dateOfBirth: '1964-08-12' };

  it('finds each stated value wherever a line of the print shows it, in any printed form', () => {
    const lines = [
      line('1.', 'Surname/Name/Nom'),
      line('«MUSTERMANN', 'ERIKA'),
      line("'CAOOOOOO", 'P'),
      line('12', 'AOUT/AUG', '64'),
    ];
    expect(findStated(lines, 'lastName', zone)).toMatchObject({ state: 'read', value: 'MUSTERMANN' });
    expect(findStated(lines, 'documentNumber', zone)).toMatchObject({ value: 'CAOOOOOO' });
    expect(findStated(lines, 'dateOfBirth', zone)).toMatchObject({ value: '12 AOUT/AUG 64' });
    expect(findStated([line('12.08.1964.')], 'dateOfBirth', zone)).toMatchObject({ value: '12.08.1964' });
    expect(
      findStated([line('QT', 'AUG', '1964')], 'dateOfBirth', { dateOfBirth: '1964-08-07' }),
    ).toMatchObject({
      value: 'QT AUG 1964',
    });
  });

  it('gives a misread name as read (close, not equal) and nothing where the print does not show it', () => {
    expect(findStated([line('MUSTERMANM')], 'lastName', zone)).toMatchObject({ value: 'MUSTERMANM' });
    expect(findStated([line('SCHMIDT'), line('12.08.1965')], 'lastName', zone)).toBeUndefined();
    expect(findStated([line('12.08.1965')], 'dateOfBirth', zone)).toBeUndefined();
    expect(findStated([line('MUSTERMANN')], 'lastName', {})).toBeUndefined();
  });

  it("never takes a value from the zone's own lines", () => {
    const mrz = [line('P<BDRMUSTERMANN<<ERIKA<<<<<<'), line('CA000000', '4D', 'cc6408125F1802212cccccc')];
    expect(mrz.every(zoneLike)).toBe(true);
    expect(findStated(mrz, 'lastName', zone)).toBeUndefined();
    expect(findStated(mrz, 'documentNumber', zone)).toBeUndefined();
    expect(zoneLike(line('BUNDESDRUCKEREI'))).toBe(false);
  });
});
