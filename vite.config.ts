import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './build/precompress';

export default defineConfig({
  plugins: [react(), precompress()],
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
