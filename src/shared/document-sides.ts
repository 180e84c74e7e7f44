import type { DocumentType } from './flow';

/** How many sides a document has: one, two, or one-or-two (the back is optional). */
export type Sides = 'one' | 'two' | 'one-or-two';

const byType: Record<DocumentType, Sides> = {
  passport: 'one',
  'national-id': 'two',
  'driving-license': 'two',
  'proof-of-residency': 'one',
};

/** Country exceptions to byType. Passports are one-sided everywhere and have no exceptions. */
const exceptions: Partial<Record<DocumentType, Record<string, Sides>>> = {
  'national-id': { BR: 'one-or-two', CL: 'two', CO: 'two', PE: 'one-or-two', US: 'one' },
  'driving-license': { BR: 'one-or-two', MX: 'two', GB: 'one-or-two' },
  'proof-of-residency': { MX: 'one-or-two' },
};

export function documentSides(type: DocumentType, country: string): Sides {
  if (type === 'passport') return 'one';
  return exceptions[type]?.[country.toUpperCase()] ?? byType[type];
}
