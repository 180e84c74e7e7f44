import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { customInput } from './first-screen-budget.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Files worth compressing: text and wasm. Images and fonts are compressed already. */
export const compressible = /\.(js|mjs|css|html|svg|json|wasm|txt|map|webmanifest)$/;

/**
 * Past this size brotli runs at quality 9, not 11: the MRZ check's tesseract cores (3.9 MB of
 * wasm in base64, three builds) took ~10 s of CPU each at 11 and 1.5 s at 9, for 1.27 MB instead
 * of 1.12 MB (gzip: 1.45 MB). Every smaller file keeps the strongest setting.
 */
export const LARGE_FILE_BYTES = 2 * 1024 * 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of a built folder, at the
 * strongest settings (paid once at build time, not per request), so that the BFF serves them
 * as they are. A compressed copy that would not be smaller is not written.
 */
export async function precompressDir(dir: string) {
  const files = filesUnder(dir).filter((file) => compressible.test(file));
  const sizes = await Promise.all(
    files.map(async (file) => {
      const raw = readFileSync(file);
      const [br, gzipped] = await Promise.all([
        brotli(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]:
              raw.length > LARGE_FILE_BYTES ? 9 : constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            [constants.BROTLI_PARAM_MODE]: file.endsWith('.wasm')
              ? constants.BROTLI_MODE_GENERIC
              : constants.BROTLI_MODE_TEXT,
          },
        }),
        gz(raw, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < raw.length) writeFileSync(`${file}.br`, br);
      if (gzipped.length < raw.length) writeFileSync(`${file}.gz`, gzipped);
      return {
        file: path.relative(dir, file),
        raw: statSync(file).size,
        br: br.length,
        gzip: gzipped.length,
      };
    }),
  );
  return sizes;
}

/** Vite plugin: precompresses the whole output folder once the build has written it. */
export function precompress(): Plugin {
  let outDir = 'dist';
  let spa = true;
  return {
    name: 'idv-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      spa = !customInput(config);
    },
    async closeBundle() {
      // A test harness page is served by its own little server, uncompressed.
      if (spa) await precompressDir(outDir);
    },
  };
}
