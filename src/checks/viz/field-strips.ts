import type { FieldKey } from '@/checks/document/field-layouts';

/**
 * Where on a page read by its labels (ICAO's generic TD3 page) a field not yet found is expected,
 * told by the fields already found: the strip of rows the reader reads again (another threshold,
 * a sparse layout), never the whole page, whose extra readings cost seconds of CPU.
 */

/** Rows of the page's crop, top and bottom (pixels). */
export interface Strip {
  y0: number;
  y1: number;
}

/** A field found on the page: its key and the rows of its value's line. */
export interface Placed extends Strip {
  key: FieldKey;
}

/**
 * The order ICAO 9303 Part 4 gives a TD3 page's personal data, top to bottom: the number on the
 * first line (beside type and code), then surname, given names, (nationality), birth date.
 */
const ORDER: readonly FieldKey[] = ['documentNumber', 'lastName', 'firstName', 'dateOfBirth'];

/** A field's line and its label's, in lines of print: the step from one field to the next, at least. */
const MIN_PITCH_IN_LINES = 2;
/** The step where only one field gives the page's scale: a label line, a value line and their gaps. */
const PITCH_IN_LINES = 3;
/** At most, between two fields found (a field or two in between, on a page that adds its own). */
const MAX_PITCH_IN_LINES = 6;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The strip a field is expected in, from the fields found (`placed`) on a crop `height` rows high:
 * its own line again where it was read close to the stated value, else the rows between the
 * nearest fields before and after it in ICAO's order (one step of the page's field pitch past the
 * one found on one side only). Undefined where nothing is placed (no anchor: nothing to bound).
 */
export function fieldStrip(key: FieldKey, placed: readonly Placed[], height: number): Strip | undefined {
  const clamp = (strip: Strip) => ({
    y0: Math.max(0, Math.round(strip.y0)),
    y1: Math.min(height, Math.round(strip.y1)),
  });
  const own = placed.find((p) => p.key === key);
  const line = placed.length ? median(placed.map((p) => p.y1 - p.y0)) : 0;
  if (own) return clamp({ y0: own.y0 - line, y1: own.y1 + line });
  const index = ORDER.indexOf(key);
  const ordered = placed
    .map((p) => ({ ...p, index: ORDER.indexOf(p.key) }))
    .filter((p) => p.index >= 0)
    .sort((a, b) => a.index - b.index);
  if (index < 0 || !ordered.length) return undefined;
  const first = ordered[0]!;
  const last = ordered[ordered.length - 1]!;
  const step =
    last.index > first.index ? (last.y0 - first.y0) / (last.index - first.index) : PITCH_IN_LINES * line;
  const pitch = Math.min(MAX_PITCH_IN_LINES * line, Math.max(MIN_PITCH_IN_LINES * line, step));
  const before = ordered.filter((p) => p.index < index).at(-1);
  const after = ordered.find((p) => p.index > index);
  const top = before ? before.y1 : after!.y0 - (after!.index - index + 1) * pitch;
  const bottom = after ? after.y0 : before!.y1 + (index - before!.index + 1) * pitch;
  const strip = clamp({ y0: top - line / 2, y1: Math.min(bottom + line / 2, top + 4 * pitch) });
  return strip.y1 - strip.y0 >= line ? strip : undefined;
}
