import { describe, expect, it } from 'vitest';
import { accessibleAccent, contrastRatio } from './color-contrast';

describe('colour contrast', () => {
  it('measures WCAG ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#1d4ed8', '#ffffff')).toBeGreaterThan(4.5);
  });

  it('keeps a colour that passes and darkens one that does not', () => {
    expect(accessibleAccent('#1D4ED8')).toEqual({ color: '#1d4ed8', adjusted: false });
    const yellow = accessibleAccent('#ffd400');
    expect(yellow.adjusted).toBe(true);
    expect(contrastRatio(yellow.color, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});
