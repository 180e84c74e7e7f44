import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { firstScreenBudget, type ScreenModules } from './build/first-screen-budget.ts';
import { precompress } from './build/precompress.ts';
import { servers } from './build/servers.ts';

// What each route's first screen loads besides the entry (lazy chunks): the build fails past 80 kB.
const wizardStrings = 'src/features/wizard/locales/en.json';
export const firstScreens: Record<string, ScreenModules> = {
  '/': { always: ['src/features/wizard/routes/flow-list-page.tsx', wizardStrings] },
  '/verify/:flowId': {
    always: ['src/features/wizard/routes/wizard-page.tsx', wizardStrings],
    // Steps come in a fixed order, an identity check's first: documents, biometrics, custom
    // documents (the heaviest counts). Custom fields (react-hook-form + zod) and the bank step come
    // after them; bench:client prints their weight.
    oneOf: [
      'src/features/wizard/components/document-step.tsx',
      'src/features/wizard/components/biometric-step.tsx',
      'src/features/wizard/components/custom-document-step.tsx',
    ],
  },
};

export default defineConfig({
  plugins: [
    react(),
    precompress(),
    servers(),
    firstScreenBudget({ budgetBytes: 80 * 1024, screens: firstScreens }),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 1500 },
  server: {
    // In development the BFF owns /api and /webhooks; Vite only serves the SPA.
    proxy: {
      '/api': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
      '/webhooks': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Integration tests run real servers and timers; on a CI machine shared with others, a second
    // try tells a load hiccup from a bug (.ci/test.mjs lists any test that still fails).
    retry: process.env.CI ? 2 : 0,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
