import { describe, expect, it } from 'vitest';
import { accessibleAccent, brandPalette, contrastRatio } from './color-contrast';

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

  it('keeps a light brand colour for fills, with dark text on it and a darker shade for text on white', () => {
    const yellow = brandPalette('#F5C518');
    expect(yellow.fill).toBe('#f5c518');
    expect(yellow.onFill).toBe('#111827');
    expect(contrastRatio(yellow.fill, yellow.onFill)).toBeGreaterThanOrEqual(4.5);
    expect(yellow.inkAdjusted).toBe(true);
    expect(contrastRatio(yellow.ink, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    const blue = brandPalette('#1d4ed8');
    expect(blue).toEqual({ fill: '#1d4ed8', onFill: '#ffffff', ink: '#1d4ed8', inkAdjusted: false });
  });
});
