import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { customInput } from './first-screen-budget.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Files worth compressing: text and wasm. Images and fonts are compressed already. */
export const compressible = /\.(js|mjs|css|html|svg|json|wasm|txt|map|webmanifest)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * Compressed copies of earlier builds, by content: most of a build's bytes (the face models, wasm,
 * pdf.js) are the same from one build to the next, and brotli at its strongest setting is most
 * of the build's time. Keyed by the bytes, the mode and the settings, so a hit is always right.
 */
const cacheDir = path.resolve('node_modules/.cache/idv-precompress');
const settingsVersion = 'q11-q9-gz9-v2';
/**
 * Past this size brotli's strongest setting costs seconds a file (each tesseract core ~10 s of
 * CPU) for a few per cent; such files load lazily, off the first screen, so quality 9 serves.
 */
const strongestUpTo = 2 * 1024 * 1024;
/**
 * Larger files that still get the strongest setting: OpenCV's wasm (the document step's finder)
 * must weigh at most 1.5 MB brotli with its worker; quality 11 makes it 1.35 MB instead of 1.56
 * (~35 s of CPU, once: the cache keeps it by content).
 */
const strongestAlways = /[\\/]opencv-[A-Za-z0-9_-]+\.wasm$/;

async function compressBoth(raw: Buffer, wasm: boolean, strongest: boolean): Promise<[Buffer, Buffer]> {
  const key = createHash('sha256')
    .update(settingsVersion)
    .update(wasm ? 'g' : 't')
    // Only a large file given the strongest setting gets another key (the others' cache stays).
    .update(strongest && raw.length > strongestUpTo ? 'q11-large' : '')
    .update(raw)
    .digest('hex');
  const cached = [path.join(cacheDir, `${key}.br`), path.join(cacheDir, `${key}.gz`)] as const;
  if (existsSync(cached[0]) && existsSync(cached[1]))
    return [readFileSync(cached[0]), readFileSync(cached[1])];
  const both = await Promise.all([
    brotli(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: strongest ? constants.BROTLI_MAX_QUALITY : 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [constants.BROTLI_PARAM_MODE]: wasm ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
      },
    }),
    gz(raw, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  try {
    mkdirSync(cacheDir, { recursive: true });
    // Written aside and renamed: a build stopped mid-write leaves no truncated entry to hit.
    cached.forEach((file, i) => {
      writeFileSync(`${file}.${process.pid}`, both[i]);
      renameSync(`${file}.${process.pid}`, file);
    });
  } catch {
    // A read-only node_modules only costs the next build its time.
  }
  return both;
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of a built folder, at the
 * strongest settings (brotli 9 for the few largest files), paid once at build time, not per
 * request, so that the BFF serves them as they are. A compressed copy that would not be smaller is not written.
 */
export async function precompressDir(dir: string) {
  const files = filesUnder(dir).filter((file) => compressible.test(file));
  const sizes = await Promise.all(
    files.map(async (file) => {
      const raw = readFileSync(file);
      const [br, gzipped] = await compressBoth(
        raw,
        file.endsWith('.wasm'),
        raw.length <= strongestUpTo || strongestAlways.test(file),
      );
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
