import { useSyncExternalStore } from 'react';
import type { Brand } from '@/shared/contract/page-data';
import { bffPaths } from '@/shared/contract/bff-paths';
import { pageData } from './page-data';

// The look comes from the BFF's settings: written into the wizard's page, or GET /api/brand; until
// it answers, the default look.
let brand: Brand = {
  name: 'IDV Capture',
  primaryColor: null,
  onPrimaryColor: null,
  primaryInkColor: null,
  font: null,
  logoUrl: null,
  retentionDays: 90,
};
const listeners = new Set<() => void>();

function apply(next: Brand) {
  brand = next;
  const root = document.documentElement.style;
  // Fills keep the brand's colour; text on them and text in the colour on white read at 4.5:1 (the BFF chose them).
  if (next.primaryColor) root.setProperty('--accent', next.primaryColor);
  if (next.onPrimaryColor) root.setProperty('--accent-fg', next.onPrimaryColor);
  if (next.primaryInkColor) root.setProperty('--accent-ink', next.primaryInkColor);
  if (next.font) root.setProperty('--brand-font', next.font);
  listeners.forEach((listener) => listener());
}

let requested = false;
function load() {
  if (requested || typeof fetch === 'undefined') return;
  requested = true;
  if (pageData()) return;
  fetch(bffPaths.brand, { credentials: 'same-origin' })
    .then((response) => (response.ok ? (response.json() as Promise<Brand>) : null))
    .then((answer) => answer && apply(answer))
    .catch(() => undefined);
}

// Written into the page: applied before the first render (no flash of the default look).
const inPage = pageData()?.brand;
if (inPage) apply(inPage);

const subscribe = (listener: () => void) => {
  load();
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The brand name, colour, font and logo the wizard shows. */
export function useBrand(): Brand {
  return useSyncExternalStore(
    subscribe,
    () => brand,
    () => brand,
  );
}
