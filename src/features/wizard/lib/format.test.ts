import { describe, expect, it } from 'vitest';
import { formatLongDate } from './format';

describe('formatLongDate', () => {
  it('writes the expiry date of a document out in each wizard language, whatever the time zone', () => {
    expect(formatLongDate('2021-03-01', 'en')).toBe('March 1, 2021');
    expect(formatLongDate('2021-03-01', 'es')).toBe('1 de marzo de 2021');
    expect(formatLongDate('2021-03-01', 'pt')).toBe('1 de março de 2021');
  });
});
