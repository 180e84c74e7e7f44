/**
 * The values printed fields hold, as text: names without accents or marks, dates in any printed
 * form (month names in five languages), the check digits of a CPF and a CURP. Pure rules, used by
 * `printed-fields.ts` to find and judge a field's value.
 */
/** Upper case, accents and marks off (Ñ → N, Ç → C, Ü → U), anything but letters and digits a space. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/ß/g, 'SS')
    .replace(/Æ/g, 'AE')
    .replace(/Ø/g, 'O')
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
}

/** ICAO 9303's other transliteration of German umlauts (MÜLLER → MUELLER), beside NFD's MULLER. */
export function umlautsSpelled(text: string): string {
  return normalizeText(
    text.toUpperCase().replace(/Ä/g, 'AE').replace(/Ö/g, 'OE').replace(/Ü/g, 'UE').replace(/Å/g, 'AA'),
  );
}

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length]!;
}

// ---------- dates ----------

export interface PrintedDate {
  day: number;
  month: number;
  /** As printed: 2 or 4 digits. */
  year: number;
  fourDigitYear: boolean;
}

/** Month names' first letters in English, French, Spanish, Portuguese and German. */
const MONTHS: Record<string, number> = {
  JAN: 1, ENE: 1, JANV: 1,
  FEB: 2, FEV: 2, FEVR: 2,
  MAR: 3, MARS: 3, MAE: 3,
  APR: 4, ABR: 4, AVR: 4,
  MAY: 5, MAI: 5,
  JUN: 6, JUIN: 6,
  JUL: 7, JUIL: 7,
  AUG: 8, AGO: 8, AOU: 8, AOUT: 8,
  SEP: 9, SET: 9, SEPT: 9,
  OCT: 10, OUT: 10, OKT: 10,
  NOV: 11,
  DEC: 12, DIC: 12, DEZ: 12,
} satisfies Record<string, number>; // prettier-ignore

/** Digits the OCR gives letters for inside a number (O for 0, l for 1…). */
export const digitLike = (text: string) =>
  text.replace(/[OQD]/g, '0').replace(/[IL|]/g, '1').replace(/S/g, '5').replace(/B/g, '8').replace(/Z/g, '2');

const monthOf = (word: string): number | undefined =>
  MONTHS[word] ?? MONTHS[word.slice(0, 4)] ?? MONTHS[word.slice(0, 3)];

/**
 * A date as printed: `12/04/1985`, `12.04.1985`, `12 04 1985`, `12 AUG/AOUT 74`, `07 JUN 1984`,
 * `20 Juin/Jun 1978`; undefined when the text holds none. The date may be impossible (31/02):
 * `isValidDate` judges it.
 */
export function parsePrintedDate(text: string): PrintedDate | undefined {
  const upper = normalizeText(text);
  const numeric = /(?:^| )([0-9OIL]{1,2}) ?([0-9OIL]{2}) ?([0-9OIL]{4}|[0-9OIL]{2})(?: |$)/.exec(
    text
      .toUpperCase()
      .replace(/[./\-·]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
  if (numeric) {
    const [day, month, year] = [numeric[1]!, numeric[2]!, numeric[3]!].map((part) => digitLike(part));
    return { day: Number(day), month: Number(month), year: Number(year), fourDigitYear: year!.length === 4 };
  }
  // Day and year may hold the OCR's look-alikes of OCR-B digits (O or Q for 0, T for 7), the year
  // at least one true digit.
  const named =
    /(?:^| )([0-9OQDILT]{1,2}) ([A-Z]{3,9})(?: [A-Z]{3,9})? ([0-9OQDILT]{4}|[0-9OQDILT]{2})(?: |$)/.exec(
      upper,
    );
  const month = named ? monthOf(named[2]!) : undefined;
  if (!named || month === undefined || !/\d/.test(named[3]!)) return undefined;
  const digits = (part: string) => Number(digitLike(part.replace(/T/g, '7')));
  return { day: digits(named[1]!), month, year: digits(named[3]!), fourDigitYear: named[3]!.length === 4 };
}

export function isValidDate(date: PrintedDate): boolean {
  if (date.month < 1 || date.month > 12 || date.day < 1) return false;
  // A two-digit year's century is unknown; only 29 February needs it, and either century has leap years.
  const year = date.fourDigitYear ? date.year : 2000 + date.year;
  return date.day <= new Date(Date.UTC(year, date.month, 0)).getUTCDate();
}

/** Whether a printed date is the ISO date (`YYYY-MM-DD`) the zone or barcode states. */
export function sameDate(printed: PrintedDate, iso: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return false;
  const year = printed.fourDigitYear ? Number(m[1]) : Number(m[1]) % 100;
  return printed.day === Number(m[3]) && printed.month === Number(m[2]) && printed.year === year;
}

// ---------- formats ----------

/** A Brazilian CPF's two check digits (mod 11). */
export function cpfHolds(cpf: string): boolean {
  const digits = cpf.replace(/\D/g, '');
  if (digits.length !== 11 || /^(\d)\1+$/.test(digits)) return false;
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
}

/** A Mexican CURP's check digit (its 18th character, over the 17 before). */
export function curpHolds(curp: string): boolean {
  const alphabet = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';
  if (curp.length !== 18) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += alphabet.indexOf(curp[i]!) * (18 - i);
  return (10 - (sum % 10)) % 10 === Number(curp[17]);
}

/** A printed date as `YYYY-MM-DD` (a two-digit year in the century that makes it past, else the last). */
export function isoDate(value: string, now = new Date()): string | undefined {
  const date = parsePrintedDate(value);
  if (!date || !isValidDate(date)) return undefined;
  let year = date.year;
  if (!date.fourDigitYear) {
    const century = Math.floor(now.getUTCFullYear() / 100) * 100;
    year = century + year > now.getUTCFullYear() + 20 ? century - 100 + year : century + year;
  }
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${year}-${pad(date.month)}-${pad(date.day)}`;
}
