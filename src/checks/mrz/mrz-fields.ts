/**
 * Where each field of an ICAO 9303 machine-readable zone stands, and how its check digits are
 * computed, for reading a zone from pixels (the glyph reader `mrz-glyphs.ts` and the OCR of the
 * service and the wizard): what a position may hold tells a letter from a digit that looks alike
 * (0/O, 1/I, 8/B, 5/S), and the check digits choose among the readings a misread leaves open.
 * Parsing and judging a zone is the `mrz` package's (`document-reading.ts`).
 */

/** Characters per line of the ICAO formats: TD3 (passports) and TD2 on two lines, TD1 on three. */
export const MRZ_FORMATS: Record<number, readonly number[]> = { 2: [44, 36], 3: [30] };

/**
 * What each position of a zone may hold, per line length: `A` letters or filler (document code,
 * states, names, sex), `N` digits or filler (dates, check digits), `X` either (document numbers,
 * optional data, which the check digits cover).
 */
export const MRZ_FIELDS: Record<number, readonly string[]> = {
  44: ['A'.repeat(44), `${'X'.repeat(9)}NAAANNNNNNNANNNNNNN${'X'.repeat(14)}NN`],
  36: ['A'.repeat(36), `${'X'.repeat(9)}NAAANNNNNNNANNNNNNN${'X'.repeat(7)}N`],
  30: [`AAAAA${'X'.repeat(9)}N${'X'.repeat(15)}`, `NNNNNNNANNNNNNNAAA${'X'.repeat(11)}N`, 'A'.repeat(30)],
};

/**
 * A visa's zone (ICAO 9303 part 7: MRV-A on two lines of 44, MRV-B of 36, document code `V…`)
 * lays out its second line as a passport's up to the expiry date's check digit, then holds
 * optional data to the end: no personal number check digit, no composite one.
 */
const VISA_FIELDS: Record<number, readonly string[]> = {
  44: ['A'.repeat(44), `${'X'.repeat(9)}NAAANNNNNNNANNNNNNN${'X'.repeat(16)}`],
  36: ['A'.repeat(36), `${'X'.repeat(9)}NAAANNNNNNNANNNNNNN${'X'.repeat(8)}`],
};

/** Whether lines of a two-line format are a visa's (its document code starts with `V`). */
export const isVisaZone = (lines: readonly string[]) =>
  lines.length === 2 && lines[0]?.startsWith('V') && VISA_FIELDS[lines[0].length] !== undefined;

/**
 * The field kinds of the positions of a zone of `lineCount` lines whose first line is `first`
 * (`MRZ_FIELDS`, or a visa's), or undefined for no ICAO format. The first line's own kinds do not
 * depend on it, so a reader may read it first and then look up the rest.
 */
export function mrzFieldLayout(lineCount: number, first: string): readonly string[] | undefined {
  if (!MRZ_FORMATS[lineCount]?.includes(first.length)) return undefined;
  return lineCount === 2 && first.startsWith('V') ? VISA_FIELDS[first.length] : MRZ_FIELDS[first.length];
}

const mrzFieldsOf = (lines: readonly string[]) => mrzFieldLayout(lines.length, lines[0] ?? '');

const DIGIT = /[0-9<]/;
const LETTER = /[A-Z<]/;
/** Whether a character may stand at a position of field kind `field` (`A`, `N` or `X`). */
export const mrzAllows = (field: string, char: string) =>
  field === 'X' || (field === 'N' ? DIGIT.test(char) : LETTER.test(char));

/** A check digit: the digit at `digit`, over the characters of `spans` ([line, from, to) each). */
interface CheckDigit {
  digit: [number, number];
  spans: [number, number, number][];
}

/** The check digits of each format (by line length), the composite one last. */
const CHECKS: Record<number, CheckDigit[]> = {
  44: [
    { digit: [1, 9], spans: [[1, 0, 9]] },
    { digit: [1, 19], spans: [[1, 13, 19]] },
    { digit: [1, 27], spans: [[1, 21, 27]] },
    { digit: [1, 42], spans: [[1, 28, 42]] },
    {
      digit: [1, 43],
      spans: [
        [1, 0, 10],
        [1, 13, 20],
        [1, 21, 43],
      ],
    },
  ],
  36: [
    { digit: [1, 9], spans: [[1, 0, 9]] },
    { digit: [1, 19], spans: [[1, 13, 19]] },
    { digit: [1, 27], spans: [[1, 21, 27]] },
    {
      digit: [1, 35],
      spans: [
        [1, 0, 10],
        [1, 13, 20],
        [1, 21, 35],
      ],
    },
  ],
  30: [
    { digit: [0, 14], spans: [[0, 5, 14]] },
    { digit: [1, 6], spans: [[1, 0, 6]] },
    { digit: [1, 14], spans: [[1, 8, 14]] },
    {
      digit: [1, 29],
      spans: [
        [0, 5, 30],
        [1, 0, 7],
        [1, 8, 15],
        [1, 18, 29],
      ],
    },
  ],
};

const value = (char: string) => {
  const code = char.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 90) return code - 55;
  return 0;
};

/** The check digits of a zone of an ICAO format: a visa's are its number's and dates' only. */
const mrzChecksOf = (lines: readonly string[]): CheckDigit[] =>
  isVisaZone(lines) ? CHECKS[lines[0].length].slice(0, 3) : (CHECKS[lines[0].length] ?? []);

/**
 * How many check digits of a zone hold (a check digit `<` over an all-filler field, as optional
 * data left empty, holds too), and of how many; none of none for lines of no ICAO format.
 */
export function mrzCheckDigitsHeld(lines: readonly string[]): { held: number; of: number } {
  if (!mrzFieldsOf(lines) || lines.some((l) => l.length !== lines[0].length)) return { held: 0, of: 0 };
  const checks = mrzChecksOf(lines);
  const held = checks.filter(({ digit: [dl, dk], spans }) => {
    const text = spans.map(([l, from, to]) => lines[l].slice(from, to)).join('');
    const d = lines[dl][dk];
    return d === '<' ? /^<*$/.test(text) : String(checkDigit(text)) === d;
  }).length;
  return { held, of: checks.length };
}

/** Whether every check digit of a zone holds. */
export function mrzCheckDigitsHold(lines: readonly string[]): boolean {
  const { held, of } = mrzCheckDigitsHeld(lines);
  return of > 0 && held === of;
}

/** ICAO 9303's check digit of a string: weights 7, 3, 1 over the characters' values, mod 10. */
export function checkDigit(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += value(text[i]) * [7, 3, 1][i % 3];
  return sum % 10;
}

/** Letters and digits an OCR or a worn print confuses, each way. */
const AS_DIGIT: Record<string, string> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  Z: '2',
  S: '5',
  B: '8',
  G: '6',
  T: '7',
};
const AS_LETTER: Record<string, string> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '5': 'S',
  '8': 'B',
  '6': 'G',
  '4': 'A',
  '7': 'T',
};
/** Characters a document number or optional data may hold instead of a read one (the check digit decides). */
const LOOKALIKES: Record<string, string> = {
  '0': 'OD',
  O: '0D',
  D: '0O',
  Q: '0O',
  '1': 'I',
  I: '1',
  '2': 'Z',
  // OCR-B's Z and 7 differ by the Z's foot only, which blur or a small print loses.
  Z: '27',
  '7': 'Z',
  '5': 'S',
  S: '5',
  '8': 'B',
  B: '8',
  '6': 'G',
  G: '6',
};

/** Letters an OCR confuses in a state code, which no check digit covers (a list of states does). */
const LETTER_LOOKALIKES: Record<string, string> = {
  M: 'N',
  N: 'MH',
  H: 'N',
  O: 'DQ',
  D: 'O',
  Q: 'O',
  I: 'L',
  L: 'I',
  U: 'V',
  V: 'U',
  E: 'F',
  F: 'E',
  C: 'G',
  G: 'C',
  B: 'R',
  R: 'B',
  K: 'X',
  X: 'K',
};
/** Where the state codes stand ([line, from, to)), per line length: issuing state, nationality. */
const STATES: Record<number, [number, number, number][]> = {
  44: [
    [0, 2, 5],
    [1, 10, 13],
  ],
  36: [
    [0, 2, 5],
    [1, 10, 13],
  ],
  30: [
    [0, 2, 5],
    [1, 15, 18],
  ],
};

/**
 * Share of a reading's characters (filler aside) that a grid of plausible characters must leave
 * open for it to bound the swaps. On the specimens the glyph reader's own characters matched an
 * OCR reading of the same band at 0.78–1 of them; a grid shifted by one cell agrees on far fewer.
 */
const MIN_ALIGNED = 0.6;

/**
 * Swaps a field may take when no grid of the pixels bounds them (the glyph reader could not cut
 * the band into cells): each more swap multiplies the readings tried, and with them the chance
 * that one makes a misprinted check digit hold.
 */
const UNSHOWN_MAX_SWAPS = 1;

/** At most this many readings of one field are tried against its check digit. */
const MAX_TRIES = 512;

/**
 * The zone with each character made what its position may hold (a digit read as a letter where
 * only digits stand, and the other way), then, where a check digit fails, the document number
 * or optional data read with look-alike characters swapped until it holds (the fewest swaps
 * first); a state code that `isState` does not know, with one letter swapped for a look-alike
 * when that makes one it knows. Lines not of an ICAO format are returned as they are; a zone
 * whose check digits still fail is returned with the per-position fixes only.
 *
 * `plausible` (per line and position, the characters the pixels leave open there: the glyph
 * reader's `plausible`, for lines of the same shape) limits the swaps to those: a failed check
 * digit has a one-in-ten chance of holding after any swap, so a search over every look-alike
 * "repairs" most zones printed with a wrong digit (or misread in two places) into a document number
 * nobody printed.
 */
export function correctMrz(
  lines: readonly string[],
  isState?: (code: string) => boolean,
  plausible?: readonly (readonly string[])[],
): string[] {
  const length = lines[0]?.length ?? 0;
  const fields = mrzFieldsOf(lines);
  if (!fields || lines.some((l) => l.length !== length)) return [...lines];
  // A grid bounds the swaps only when its cells line up with these lines: when the pixels leave
  // most of the characters read here open (an OCR reading a character more or fewer on a line
  // would meet a shifted grid, which would forbid the wrong swaps).
  const aligned = (grid: readonly (readonly string[])[]) => {
    let printed = 0;
    let open = 0;
    lines.forEach((line, l) =>
      [...line].forEach((c, k) => {
        if (c === '<') return;
        printed++;
        if (grid[l][k].includes(c)) open++;
      }),
    );
    return open >= MIN_ALIGNED * printed;
  };
  const shown =
    plausible?.length === lines.length &&
    plausible.every((p, l) => p.length === lines[l].length) &&
    aligned(plausible)
      ? plausible
      : undefined;
  const chars = lines.map((line, l) =>
    [...line].map((c, k) => {
      const field = fields[l][k];
      if (field === 'N' && !DIGIT.test(c)) return AS_DIGIT[c] ?? c;
      if (field === 'A' && !LETTER.test(c)) return AS_LETTER[c] ?? c;
      return c;
    }),
  );
  const text = (spans: [number, number, number][]) =>
    spans.map(([l, from, to]) => chars[l].slice(from, to).join('')).join('');
  const holds = (check: CheckDigit) => {
    const d = chars[check.digit[0]][check.digit[1]];
    // A field left empty may carry filler for its check digit (optional data).
    if (d === '<') return /^<*$/.test(text(check.spans));
    return String(checkDigit(text(check.spans))) === d;
  };
  // Positions a holding check digit vouches for: the composite one may not swap them.
  const settled = new Set<string>();
  const settle = (check: CheckDigit) =>
    check.spans.forEach(([l, from, to]) => {
      for (let k = from; k < to; k++) settled.add(`${l}:${k}`);
    });
  for (const check of mrzChecksOf(lines)) {
    if (holds(check)) {
      settle(check);
      continue;
    }
    // The positions that may hold a look-alike: document numbers and optional data only.
    const open = check.spans.flatMap(([l, from, to]) =>
      Array.from({ length: to - from }, (_, i) => [l, from + i] as const).filter(
        ([line, k]) => fields[line][k] === 'X' && LOOKALIKES[chars[line][k]] && !settled.has(`${line}:${k}`),
      ),
    );
    // Letters first: a document number is mostly digits, so of two readings that hold, the one
    // that made a letter a digit is likelier than the one that made a digit a letter.
    open.sort(([la, ka], [lb, kb]) => Number(/\d/.test(chars[la][ka])) - Number(/\d/.test(chars[lb][kb])));
    const original = open.map(([l, k]) => chars[l][k]);
    const options = original.map((c, i) => [
      c,
      ...[...LOOKALIKES[c]].filter((o) => !shown || shown[open[i][0]][open[i][1]].includes(o)),
    ]);
    let found = false;
    // Readings by number of swaps: 1, then 2, … (each swap one position to one look-alike).
    const tryChanges = (start: number, left: number, budget: { tries: number }): boolean => {
      if (left === 0) return holds(check);
      for (let i = start; i < open.length; i++) {
        for (const option of options[i].slice(1)) {
          if (--budget.tries < 0) return false;
          chars[open[i][0]][open[i][1]] = option;
          if (tryChanges(i + 1, left - 1, budget)) return true;
        }
        chars[open[i][0]][open[i][1]] = original[i];
      }
      return false;
    };
    const budget = { tries: MAX_TRIES };
    for (let swaps = 1; swaps <= Math.min(shown ? 3 : UNSHOWN_MAX_SWAPS, open.length) && !found; swaps++)
      found = tryChanges(0, swaps, budget);
    if (found) settle(check);
    else open.forEach(([l, k], i) => (chars[l][k] = original[i]));
  }
  if (isState)
    for (const [l, from, to] of STATES[length]) {
      const code = chars[l].slice(from, to);
      const known = (c: string[]) => isState(c.join('').replace(/</g, ''));
      if (known(code)) continue;
      const swap = code
        .flatMap((c, i) =>
          [...(LETTER_LOOKALIKES[c] ?? '')].map((o) => code.map((x, j) => (j === i ? o : x))),
        )
        .find(known);
      if (swap) swap.forEach((c, i) => (chars[l][from + i] = c));
    }
  return chars.map((line) => line.join(''));
}
