import { describe, expect, it } from 'vitest';
import { acceptedLanguages, pickLanguage } from './languages';

describe('the language of a page', () => {
  it('reads Accept-Language by preference, leaving out what is refused', () => {
    expect(acceptedLanguages('pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7')).toEqual(['pt-BR', 'pt', 'en-US', 'en']);
    expect(acceptedLanguages('en;q=0.2, es , fr;q=0')).toEqual(['es', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('picks the first the SPA speaks, by its base, as the browser does from navigator.languages', () => {
    expect(pickLanguage(acceptedLanguages('fr-CA,fr;q=0.9,es-AR;q=0.8,en;q=0.5'))).toBe('es');
    expect(pickLanguage(['pt-BR'])).toBe('pt');
    expect(pickLanguage(['de', 'fr'])).toBeNull();
  });
});
