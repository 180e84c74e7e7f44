/** WCAG 2 contrast of colours given as #rrggbb (no dependencies: the BFF and the SPA both use it). */

const hex = /^#([0-9a-f]{6})$/i;

export const isHexColor = (value: string) => hex.test(value);

function channels(color: string): [number, number, number] {
  const n = parseInt(hex.exec(color)![1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance(color: string): number {
  const [r, g, b] = channels(color).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const toHex = (rgb: number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/**
 * A brand colour usable for buttons and links on white with white text on it (WCAG AA, 4.5:1):
 * the colour itself when it passes, else the same hue darkened step by step until it does.
 */
export function accessibleAccent(color: string, minimum = 4.5): { color: string; adjusted: boolean } {
  if (contrastRatio(color, '#ffffff') >= minimum) return { color: color.toLowerCase(), adjusted: false };
  const rgb = channels(color);
  for (let factor = 0.95; factor > 0; factor -= 0.05) {
    const darker = toHex(rgb.map((c) => c * factor));
    if (contrastRatio(darker, '#ffffff') >= minimum) return { color: darker, adjusted: true };
  }
  return { color: '#000000', adjusted: true };
}

const dark = '#111827';
const light = '#ffffff';

/**
 * The brand colour as set, for fills (buttons, progress), with what goes with it: the text colour
 * on it (dark or light, whichever reads at 4.5:1 or better) and the colour for text, links and
 * outlines on the white page (the colour itself, or its darkened shade when it is too light).
 */
export function brandPalette(color: string): {
  fill: string;
  onFill: string;
  ink: string;
  inkAdjusted: boolean;
} {
  const fill = color.toLowerCase();
  const onFill = contrastRatio(fill, light) >= contrastRatio(fill, dark) ? light : dark;
  const ink = accessibleAccent(fill);
  return { fill, onFill, ink: ink.color, inkAdjusted: ink.adjusted };
}
