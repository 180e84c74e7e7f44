import { parse, states } from 'mrz';
import { describe, expect, it } from 'vitest';
import { parseMrzLines } from './document-reading';
import { checkDigit, correctMrz } from './mrz-fields';

const isState = (code: string) => Object.hasOwn(states, code);
/** ICAO 9303's own TD3 specimen (issued by Utopia, a state no list of countries holds). */
const ICAO_TD3 = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];

describe('MRZ fields', () => {
  it('computes ICAO check digits', () => {
    expect(checkDigit('L898902C3')).toBe(6);
    expect(checkDigit('740812')).toBe(2);
    expect(checkDigit('ZE184226B<<<<<')).toBe(1);
  });

  it('makes letters of digits where names stand and digits of letters where dates stand', () => {
    const misread = [
      'P<UT0ERIKSS0N<<ANNA<MAR1A<<<<<<<<<<<<<<<<<<<',
      'L898902C36UTO74O8122F12O4159ZE184226B<<<<<1O',
    ];
    expect(correctMrz(misread)).toEqual(ICAO_TD3);
  });

  it('swaps look-alikes in a document number until its check digit holds, letters to digits first', () => {
    const card = [
      'IDCMW<51Z849702<<<<<<<<<<<<<<<',
      '6104128M1402209CMW<<<<<<<<<<<1',
      'PUBLIC<<JON<<<<<<<<<<<<<<<<<<<',
    ];
    // Z→2 and 5→S both make the check digit hold: a document number is mostly digits.
    expect(correctMrz(card)[0]).toBe('IDCMW<512849702<<<<<<<<<<<<<<<');
    // The composite check digit (wrong on this specimen) may not undo what the number's check vouched for.
    expect(correctMrz(['IDCMW<512849702<<<<<<<<<<<<<<<', ...card.slice(1)])[0]).toBe(
      card[0].replace('Z', '2'),
    );
  });

  it('swaps only what the pixels leave open when the reader says what that is', () => {
    // The number is printed `<51284970`; its check digit (3) holds for `<51Z84970` alone.
    const card = [
      'IDCMW<512849703<<<<<<<<<<<<<<<',
      '6104128M1402209CMW<<<<<<<<<<<1',
      'PUBLIC<<JON<<<<<<<<<<<<<<<<<<<',
    ];
    expect(correctMrz(card)[0]).toBe('IDCMW<51Z849703<<<<<<<<<<<<<<<');
    const only = (line: string) => [...line];
    const sure = card.map(only);
    expect(correctMrz(card, undefined, sure)).toEqual(card);
    // Where the pixels show a 2 that may be a Z, the swap stands.
    const open = card.map(only);
    open[0][8] = '2Z';
    expect(correctMrz(card, undefined, open)[0]).toBe('IDCMW<51Z849703<<<<<<<<<<<<<<<');
    // A grid of another shape, or one shifted a cell (lines the OCR read otherwise), bounds nothing.
    expect(correctMrz(card, undefined, sure.slice(0, 2))[0]).toBe('IDCMW<51Z849703<<<<<<<<<<<<<<<');
    const shifted = card.map((line) => [...`<${line.slice(0, -1)}`]);
    expect(correctMrz(card, undefined, shifted)[0]).toBe('IDCMW<51Z849703<<<<<<<<<<<<<<<');
  });

  it('swaps one look-alike at most where no grid of the pixels bounds the swaps', () => {
    // The number's check digit (2) holds only after two swaps (Z→7, 2→Z): a reading nobody printed.
    const card = [
      'IDCMW5Z28497B22<<<<<<<<<<<<<<<',
      '6104128M1402209CMW<<<<<<<<<<<1',
      'PUBLIC<<JON<<<<<<<<<<<<<<<<<<<',
    ];
    expect(correctMrz(card)).toEqual(card);
    // Where the pixels leave both look-alikes open there, the two swaps stand.
    const open = card.map((line) => [...line].map((c) => `${c}7Z2`));
    expect(correctMrz(card, undefined, open)[0]).toBe('IDCMW57Z8497B22<<<<<<<<<<<<<<<');
  });

  it('reads a state code the list knows when one letter is a look-alike, and leaves the rest', () => {
    const nld = [
      'P<MLDMEULENDIJK<<LOES<ALBERTINE<<<<<<<<<<<<<',
      'XA00000148MLD7110195F0604121123456782<<<<<02',
    ];
    const corrected = correctMrz(nld, isState);
    expect(corrected[0].slice(2, 5)).toBe('NLD');
    expect(corrected[1].slice(10, 13)).toBe('NLD');
    expect(correctMrz(ICAO_TD3, isState)).toEqual(ICAO_TD3);
  });

  it('takes a zone whose only fault is a state code written as one but unlisted (UTO), not a wrong check digit', () => {
    expect(parseMrzLines(ICAO_TD3, parse)).toMatchObject({
      found: true,
      valid: true,
      issuingState: 'UTO',
      person: {
        lastName: 'ERIKSSON',
        firstName: 'ANNA MARIA',
        nationality: 'UTO',
        documentNumber: 'L898902C3',
      },
    });
    const badDigit = [ICAO_TD3[0], ICAO_TD3[1].replace('C36', 'C37')];
    expect(parseMrzLines(badDigit, parse)).toMatchObject({ found: true, valid: false });
    const badState = [ICAO_TD3[0].replace('UTO', 'U7O'), ICAO_TD3[1]];
    expect(parseMrzLines(badState, parse)).toMatchObject({ found: true, valid: false });
  });

  it('takes a nationality left blank (<<<), as a Macau resident card prints it, and never a blank issuer', () => {
    const card = [
      'I<MAC1228150<<9<<<<<<<<<<<<<<<',
      '6106225M2912305<<<<<<<<<<<<<<6',
      'CHONG<<KA<KEONG<<<<<<<<<<<<<<<',
    ];
    const read = parseMrzLines(card, parse);
    expect(read).toMatchObject({
      found: true,
      valid: true,
      issuingState: 'MAC',
      person: { lastName: 'CHONG' },
    });
    expect(read.found && read.valid && read.person.nationality).toBeUndefined();
    const noIssuer = [card[0].replace('MAC', '<<<'), ...card.slice(1)];
    expect(parseMrzLines(noIssuer, parse)).toMatchObject({ found: true, valid: false });
  });

  it('reads a Z taken for a 7 in optional data when the check digit says so', () => {
    const misread = [ICAO_TD3[0], ICAO_TD3[1].replace('ZE184', '7E184')];
    expect(correctMrz(misread)).toEqual(ICAO_TD3);
  });

  it("reads a visa's zone (MRV-A, MRV-B): three check digits, no composite, optional data as printed", () => {
    // ICAO 9303 part 7's specimens, issued by Utopia to a person of unstated nationality (XXX).
    const mrvA = [
      'VIUTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
      'L8988901C4XXX4009078F96121096ZE184226B<<<<<<',
    ];
    const mrvB = ['VIUTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'];
    for (const zone of [mrvA, mrvB])
      expect(parseMrzLines(correctMrz(zone, isState), parse)).toMatchObject({
        found: true,
        valid: true,
        lines: zone,
        documentCode: 'VI',
        issuingState: 'UTO',
        person: {
          lastName: 'ERIKSSON',
          firstName: 'ANNA MARIA',
          documentNumber: 'L8988901C',
          nationality: 'XXX',
          dateOfBirth: '1940-09-07',
          expiryDate: '1996-12-10',
          sex: 'F',
        },
      });
    // The last two places are optional data on a visa, not check digits: letters stay letters.
    const lettersAtEnd = [mrvA[0], mrvA[1].replace('B<<<<<<', 'B<<<<OB')];
    expect(correctMrz(lettersAtEnd)).toEqual(lettersAtEnd);
    const badDigit = [mrvA[0], mrvA[1].replace('4009078', '4009079')];
    expect(parseMrzLines(correctMrz(badDigit), parse)).toMatchObject({ found: true, valid: false });
    const noDate = [mrvB[0], mrvB[1].replace('4009078', '4013078')];
    expect(parseMrzLines(noDate, parse)).toMatchObject({ found: true, valid: false });
  });

  it('leaves lines of no ICAO format as they are', () => {
    expect(correctMrz(['ABC<<', 'D0E<<'])).toEqual(['ABC<<', 'D0E<<']);
  });
});
