import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'vite';
import { customInput } from './first-screen-budget.ts';

/**
 * The Node entry points, each bundled into one file of its own (node_modules stay outside, as
 * installed): `npm start` runs JavaScript, with no TypeScript loader in the processes or their
 * worker threads. Workers find their bundle beside the one that starts them.
 */
export const serverEntries = {
  start: 'src/start.ts',
  service: 'src/service/main.ts',
  bff: 'src/bff/main.ts',
  'pdf-worker': 'src/checks/pdf/node/pdf-worker.ts',
  'image-worker': 'src/service/checks/image-worker.ts',
  'face-worker': 'src/service/checks/face-worker.ts',
  'ffmpeg-worker': 'src/service/checks/ffmpeg-worker.ts',
};

/** Where the servers of an SPA build go: beside it (`dist` → `dist-server`). */
export const serverDirFor = (spaOutDir: string) => `${spaOutDir.replace(/[\\/]+$/, '')}-server`;

export async function buildServers(outDir: string, root = process.cwd()) {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: serverEntries,
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
    // import.meta.resolve('tsx/…') is only reached when running from the sources.
    logOverride: { 'unsupported-dynamic-import': 'silent' },
  });
  // The demo flows are read from the folder beside the code (src/service/verification/flows.ts).
  cpSync(path.join(root, 'src/service/verification/flows'), path.join(outDir, 'flows'), {
    recursive: true,
    filter: (file) => !file.endsWith('.md'),
  });
  // The MRZ OCR's model, read from the folder beside the code (src/checks/mrz/node/mrz.ts).
  cpSync(path.join(root, 'src/checks/mrz/node/tesseract-mrz'), path.join(outDir, 'tesseract-mrz'), {
    recursive: true,
  });
}

/** Vite plugin: one `vite build` builds the SPA and, beside it, the servers. */
export function servers(): Plugin {
  let outDir = 'dist';
  let root = process.cwd();
  let spa = true;
  return {
    name: 'idv-servers',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
      spa = !customInput(config);
    },
    async closeBundle() {
      if (spa) await buildServers(serverDirFor(outDir), root);
    },
  };
}
