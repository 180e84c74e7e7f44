import { describe, expect, it } from 'vitest';
import { idCardMrz, voterCardMrz } from '../../../../e2e/fixtures/mrz-lines';
import { parseMrzLines } from './mrz';
import { voterCardOcrNumber, zonePerson, type ValidZone } from './zone-person';

const read = (lines: string[]) => {
  const zone = parseMrzLines(lines);
  if (!zone.found || !zone.valid) throw new Error(`the zone does not hold: ${lines.join(' / ')}`);
  return zone as ValidZone;
};

const holder = {
  fullName: 'MARIA MUESTRA',
  firstName: 'MARIA',
  lastName: 'MUESTRA',
  dateOfBirth: '1990-02-15',
  expiryDate: '2031-12-31',
  sex: 'F',
};
const voterCardZone = (cic: string, ocr: string) => voterCardMrz(holder, cic, ocr);

describe('the INE zone (issue 39, item 5)', () => {
  it('gives the 13-digit OCR number of a voter card zone that holds, beside its CIC', () => {
    const zone = read(voterCardZone('123456789', '0912345678901'));
    expect(voterCardOcrNumber(zone)).toBe('0912345678901');
    expect(zonePerson(zone)).toMatchObject({
      documentNumber: '123456789',
      fullName: 'MARIA MUESTRA',
      extra: { ocrNumber: '0912345678901' },
    });
  });

  it('gives none where the zone is no voter card, or its optional data no OCR number', () => {
    const other = read(
      idCardMrz('ARG', { fullName: 'A B', lastName: 'B', firstName: 'A', documentNumber: '12345678' }),
    );
    expect(voterCardOcrNumber(other)).toBeUndefined();
    expect(zonePerson(other)).not.toHaveProperty('extra');
    const blank = read(voterCardZone('123456789', '<<<<<<<<<<<<<'));
    expect(voterCardOcrNumber(blank)).toBeUndefined();
  });
});
