import { describe, expect, it } from 'vitest';
import { BundleWeights, type Bundle } from './first-screen-budget';

const root = '/project';
const chunk = (
  fileName: string,
  module: string | null,
  imports: string[] = [],
  dynamicImports: string[] = [],
) => ({
  type: 'chunk' as const,
  fileName,
  code: `/* ${fileName} */ ${'x'.repeat(200)}`,
  isEntry: module === 'src/main.tsx',
  facadeModuleId: module && `${root}/${module}`,
  imports,
  dynamicImports,
});

// A small build as Vite writes it: the entry imports the route lazily; the route imports its
// strings, a step and a card lazily, and the step a heavy library.
const bundle: Bundle = {
  'index.html': { type: 'asset', fileName: 'index.html', source: '<!doctype html>' },
  'assets/main.js': chunk('assets/main.js', 'src/main.tsx', ['assets/shared.js'], ['assets/route.js']),
  'assets/shared.js': chunk('assets/shared.js', null),
  'assets/route.js': chunk(
    'assets/route.js',
    'src/route.tsx',
    ['assets/shared.js'],
    ['assets/en.js', 'assets/es.js', 'assets/step.js', 'assets/card.js'],
  ),
  'assets/en.js': chunk('assets/en.js', 'src/en.json'),
  'assets/es.js': chunk('assets/es.js', 'src/es.json'),
  'assets/step.js': chunk('assets/step.js', 'src/step.tsx', [], ['assets/heavy.js']),
  'assets/heavy.js': chunk('assets/heavy.js', 'node_modules/heavy/index.js'),
  'assets/card.js': chunk('assets/card.js', 'src/card.tsx'),
};

describe('BundleWeights.firstScreen', () => {
  const weights = new BundleWeights(bundle, root);

  it('counts every import() the screen reaches, transitively, unless it is named later', () => {
    const files = weights.firstScreen({ always: ['src/route.tsx', 'src/en.json'] });
    expect([...files].sort()).toEqual(
      [
        'index.html',
        'assets/main.js',
        'assets/shared.js',
        'assets/route.js',
        'assets/en.js',
        'assets/es.js',
        'assets/step.js',
        'assets/heavy.js',
        'assets/card.js',
      ].sort(),
    );
  });

  it('leaves out what is named later, with what only it imports, and the other routes', () => {
    const files = weights.firstScreen({
      always: ['src/route.tsx', 'src/en.json'],
      later: ['src/es.json', 'src/step.tsx'],
    });
    expect([...files].sort()).toEqual(
      [
        'index.html',
        'assets/main.js',
        'assets/shared.js',
        'assets/route.js',
        'assets/en.js',
        'assets/card.js',
      ].sort(),
    );
    expect(weights.total(files).brotli).toBeLessThan(
      weights.total(weights.firstScreen({ always: ['src/route.tsx', 'src/en.json'] })).brotli,
    );
  });

  it('fails on a module named later that has no chunk (a stale name)', () => {
    expect(() => weights.firstScreen({ always: ['src/route.tsx'], later: ['src/gone.tsx'] })).toThrow(
      /no chunk for src\/gone\.tsx/,
    );
  });
});
