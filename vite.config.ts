import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { firstScreenBudget, type ScreenModules } from './src/build/first-screen-budget.ts';
import { openCvWithoutEvalPlugin } from './src/build/opencv-without-eval.ts';
import { precompress } from './src/build/precompress.ts';
import { servers } from './src/build/servers.ts';

// What each route's first screen loads besides the entry (lazy chunks): the build fails past 80 kB.
// Every import() the screen's code reaches counts too, unless `later` names it: what loads once the
// screen is usable. bench:client checks the browser fetches no more before the screen shows.
const wizardStrings = 'src/features/wizard/locales/en.json';
// The wizard's strings in the other languages: one language loads, and English is the heaviest.
const otherStrings = ['src/features/wizard/locales/es.json', 'src/features/wizard/locales/pt.json'];
const wizard = (path: string) => `src/features/wizard/${path}`;
const testFiles = ['src/**/*.test.{ts,tsx}'];
// Test files that replace a module with vi.mock run in a process of their own: in the shared one
// the module may already be loaded by an earlier file, and the replacement would not apply (or leak).
// Found by reading the files, so that a new one cannot be forgotten here.
const ownProcessFiles = (readdirSync('src', { recursive: true, encoding: 'utf8' }) as string[])
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => join('src', file))
  .filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, 'utf8')))
  .sort();

export const firstScreens: Record<string, ScreenModules> = {
  '/': { always: [wizard('routes/flow-list-page.tsx'), wizardStrings], later: otherStrings },
  // The wizard opens on its welcome and consent screen (in the page's chunk); the steps' code and
  // the phone handoff card are fetched once it has shown and the page is idle
  // (src/features/wizard/routes/wizard-page.tsx), and bench:client prints each step's weight.
  '/verify/:flowId': {
    always: [wizard('routes/wizard-page.tsx'), wizardStrings],
    later: [
      ...otherStrings,
      ...['document-step', 'biometric-step', 'custom-document-step', 'custom-fields-step', 'bank-step']
        .concat(['review-screen', 'failures-screen', 'done-screen', 'handoff-card'])
        .map((name) => wizard(`components/${name}.tsx`)),
      // The QR code of the phone handoff: only when asked for.
      'node_modules/qrcode/lib/browser.js',
    ],
  },
};

/**
 * The files the wizard's checks load at run time, served from node_modules in development and
 * copied into the build (only the files the checks use): the face models and TensorFlow.js wasm
 * of the selfie check; tesseract.js's worker, its LSTM wasm cores, the MRZ-trained and the English
 * data of the MRZ check.
 */
function modelAssets(): Plugin {
  const require = createRequire(import.meta.url);
  const humanModels = join(dirname(require.resolve('@vladmandic/human')), '..', 'models');
  const tfjsWasm = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
  const tesseract = join(dirname(require.resolve('tesseract.js')), '..', 'dist');
  // tesseract.js-core is tesseract.js's own dependency: resolved from there.
  const tesseractCore = dirname(
    createRequire(require.resolve('tesseract.js')).resolve('tesseract.js-core/package.json'),
  );
  const engData = join(dirname(require.resolve('@tesseract.js-data/eng')), '4.0.0_best_int');
  const files: Record<string, string> = {};
  for (const model of ['blazeface', 'facemesh', 'iris']) {
    for (const ext of ['json', 'bin'])
      files[`models/human/${model}.${ext}`] = join(humanModels, `${model}.${ext}`);
  }
  for (const wasm of [
    'tfjs-backend-wasm.wasm',
    'tfjs-backend-wasm-simd.wasm',
    'tfjs-backend-wasm-threaded-simd.wasm',
  ])
    files[`models/tfjs/${wasm}`] = join(tfjsWasm, wasm);
  files['models/tesseract/worker.min.js'] = join(tesseract, 'worker.min.js');
  for (const core of ['lstm', 'simd-lstm', 'relaxedsimd-lstm'])
    files[`models/tesseract/core/tesseract-core-${core}.wasm.js`] = join(
      tesseractCore,
      `tesseract-core-${core}.wasm.js`,
    );
  files['models/tesseract/eng/eng.traineddata.gz'] = join(engData, 'eng.traineddata.gz');
  // The MRZ-trained model, kept in the repository with its licence (no npm package ships one).
  files['models/tesseract/mrz/mrz.traineddata.gz'] = fileURLToPath(
    new URL('./src/checks/mrz/node/tesseract-mrz/mrz.traineddata.gz', import.meta.url),
  );
  return {
    name: 'model-assets',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const file = files[(req.url ?? '').replace(/^\//, '').split('?')[0]];
        if (!file) return next();
        res.setHeader(
          'content-type',
          file.endsWith('.json')
            ? 'application/json'
            : file.endsWith('.wasm')
              ? 'application/wasm'
              : file.endsWith('.js')
                ? 'text/javascript'
                : 'application/octet-stream',
        );
        res.end(readFileSync(file));
      });
    },
    generateBundle() {
      for (const [fileName, file] of Object.entries(files))
        this.emitFile({ type: 'asset', fileName, source: readFileSync(file) });
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    openCvWithoutEvalPlugin(),
    modelAssets(),
    precompress(),
    servers(),
    firstScreenBudget({ budgetBytes: 80 * 1024, screens: firstScreens }),
  ],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // The document worker's OpenCV, without string evaluation (the page's policy forbids it).
  worker: { plugins: () => [openCvWithoutEvalPlugin()] },
  // The manifest tells the BFF which chunks a route's page must preload (src/bff/http/spa-page.ts).
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 1600, manifest: true },
  server: {
    // In development the BFF owns /api and /webhooks; Vite only serves the SPA.
    proxy: {
      '/api': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
      '/webhooks': `http://127.0.0.1:${process.env.PORT ?? 8080}`,
    },
  },
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at once even on two cores: most integration tests wait on servers, timers and
    // child processes more than they compute.
    maxWorkers: 2,
    // No second tries: a test that fails once is a bug to fix, in the test or the product.
    retry: 0,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    setupFiles: ['src/testing/vitest-setup.ts'],
    projects: [
      {
        extends: true,
        // Many files in one process: the models, the OCR data and the WebAssembly load once per
        // process instead of once per file (about a fifth of the run). src/testing/vitest-setup.ts starts
        // what a file must start afresh.
        test: { name: 'shared', isolate: false, include: testFiles, exclude: ownProcessFiles },
      },
      // Files that replace a module (vi.mock), or whose premise needs module state of their own.
      { extends: true, test: { name: 'isolated', include: ownProcessFiles } },
    ],
  },
});
