const cache = new Map<string, Intl.DisplayNames | null>();

/** A country's name in the UI language ("Argentina", "Brasil"), falling back to its code. */
export function countryName(code: string, language: string): string {
  if (!cache.has(language)) {
    try {
      cache.set(language, new Intl.DisplayNames([language], { type: 'region' }));
    } catch {
      cache.set(language, null);
    }
  }
  return cache.get(language)?.of(code) ?? code;
}
