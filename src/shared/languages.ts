/** The languages of the SPA (and of a flow's own texts). */
export const languages = ['en', 'es', 'pt'] as const;
export type Language = (typeof languages)[number];
export const fallbackLanguage: Language = 'en';

export const isLanguage = (value: string): value is Language =>
  (languages as readonly string[]).includes(value);

/**
 * The first of the person's languages (most preferred first) that the SPA speaks, by its base
 * ("pt-BR" is pt), or null. The browser picks from navigator.languages and the BFF from
 * Accept-Language with this same rule, so that the locale the page preloads is the one it uses.
 */
export function pickLanguage(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const base = tag.trim().slice(0, 2).toLowerCase();
    if (isLanguage(base)) return base;
  }
  return null;
}

/** An Accept-Language header's tags, most preferred first (q=0 left out). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}
