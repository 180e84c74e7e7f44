import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

/** What a screen loads beyond the entry: modules always loaded, and the heaviest of alternatives. */
export interface ScreenModules {
  /** Modules (paths from the project root) whose chunks the screen always loads. */
  always: string[];
  /** The screen loads one of these (the first step of a flow, say): the heaviest counts. */
  oneOf?: string[];
  /**
   * Modules the screen's code imports lazily but that the first screen does not wait for: fetched
   * once it is usable (idle preloads, a click) or alternatives of one counted (another language).
   * Every other `import()` reachable from the screen's modules counts, with what it imports: a new
   * one weighs on the budget until it is named here, so the figure is what the browser fetches.
   */
  later?: string[];
}

interface OutputItem {
  type: 'chunk' | 'asset';
  fileName: string;
  code?: string;
  source?: string | Uint8Array;
  isEntry?: boolean;
  facadeModuleId?: string | null;
  imports?: string[];
  dynamicImports?: string[];
  viteMetadata?: { importedCss: Set<string>; importedAssets: Set<string> };
}
export type Bundle = Record<string, OutputItem>;

const brotliSize = (bytes: string | Uint8Array) =>
  brotliCompressSync(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
  }).length;

/**
 * The files a screen of the built SPA loads before it is usable, and what they weigh brotli-compressed
 * (as the BFF sends them): index.html, the entry chunk with its static imports and CSS, and the
 * chunks of the given modules with theirs. Lazily imported code is not counted unless named.
 */
export class BundleWeights {
  private readonly byModule = new Map<string, OutputItem>();
  private readonly moduleOf = new Map<string, string>();
  private readonly sizes = new Map<string, { raw: number; brotli: number }>();

  constructor(
    private readonly bundle: Bundle,
    root: string,
  ) {
    for (const item of Object.values(bundle))
      if (item.type === 'chunk' && item.facadeModuleId) {
        const module = path.relative(root, item.facadeModuleId).split(path.sep).join('/');
        this.byModule.set(module, item);
        this.moduleOf.set(item.fileName, module);
      }
  }

  size(fileName: string) {
    let size = this.sizes.get(fileName);
    if (!size) {
      const item = this.bundle[fileName];
      const bytes = item.type === 'chunk' ? item.code! : item.source!;
      size = { raw: Buffer.byteLength(bytes), brotli: brotliSize(bytes) };
      this.sizes.set(fileName, size);
    }
    return size;
  }

  /** The files a chunk brings along: itself, its static imports (transitively), their CSS and assets. */
  private closure(item: OutputItem, into: Set<string>) {
    if (into.has(item.fileName)) return into;
    into.add(item.fileName);
    for (const css of item.viteMetadata?.importedCss ?? []) into.add(css);
    for (const imported of item.imports ?? []) this.closure(this.bundle[imported], into);
    return into;
  }

  private chunkOf(module: string) {
    const chunk = this.byModule.get(module);
    if (!chunk) throw new Error(`no chunk for ${module}: is it imported lazily (import()) as its own chunk?`);
    return chunk;
  }

  /** The files of the given modules (paths from the project root), with everything they import statically. */
  filesOf(modules: string[], into = new Set<string>()) {
    for (const module of modules) {
      const chunk = this.chunkOf(module);
      this.closure(chunk, into);
      // Assets the module refers to by URL (a worker script, say) load with it.
      for (const asset of chunk.viteMetadata?.importedAssets ?? []) into.add(asset);
    }
    return into;
  }

  /**
   * The first screen: index.html, the entry with its static imports, the screen's own modules, and
   * every chunk those import lazily (transitively) unless `later` names it. The entry's own lazy
   * imports are the routes: the route's `always` says which one loads.
   */
  firstScreen(screen: ScreenModules) {
    const entry = new Set<string>(['index.html']);
    for (const item of Object.values(this.bundle))
      if (item.type === 'chunk' && item.isEntry) this.closure(item, entry);
    const later = new Set(screen.later?.map((module) => this.chunkOf(module).fileName));
    const withLazyImports = (files: Set<string>) => {
      for (const file of files) {
        if (entry.has(file)) continue;
        for (const imported of this.bundle[file]?.dynamicImports ?? [])
          // The set grows while it is walked: what a counted chunk imports lazily is walked too.
          if (!later.has(imported)) this.closure(this.bundle[imported], files);
      }
      return files;
    };
    const base = withLazyImports(this.filesOf(screen.always, new Set(entry)));
    let heaviest = base;
    for (const option of screen.oneOf ?? []) {
      const files = withLazyImports(this.filesOf([option], new Set(base)));
      if (this.total(files).brotli > this.total(heaviest).brotli) heaviest = files;
    }
    return heaviest;
  }

  /** The module a chunk is the facade of (a path from the project root), or its file name. */
  nameOf(fileName: string) {
    return this.moduleOf.get(fileName) ?? fileName;
  }

  has(fileName: string) {
    return fileName in this.bundle;
  }

  total(files: Set<string>) {
    let raw = 0;
    let brotli = 0;
    for (const file of files) {
      if (!this.bundle[file]) continue;
      const size = this.size(file);
      raw += size.raw;
      brotli += size.brotli;
    }
    return { raw, brotli };
  }
}

/** A build of another page than index.html (a test harness): not the SPA, no budget. */
export const customInput = (config: ResolvedConfig) =>
  !!(config.build.rolldownOptions?.input ?? config.build.rollupOptions?.input);

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/**
 * Vite plugin: fails the build when a first screen weighs more than `budgetBytes` brotli-compressed.
 * `screens` names, per route, the lazily loaded modules it shows at once.
 */
export function firstScreenBudget(options: {
  budgetBytes: number;
  screens: Record<string, ScreenModules>;
}): Plugin {
  let root = process.cwd();
  let spa = true;
  return {
    name: 'idv-first-screen-budget',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      spa = !customInput(config);
    },
    writeBundle(_output, bundle) {
      if (!spa) return;
      const weights = new BundleWeights(bundle as unknown as Bundle, root);
      const over: string[] = [];
      for (const [route, screen] of Object.entries(options.screens)) {
        const files = weights.firstScreen(screen);
        const { raw, brotli } = weights.total(files);
        const line = `first screen of ${route}: ${kB(brotli)} brotli (${kB(raw)} raw), budget ${kB(options.budgetBytes)}`;
        if (brotli <= options.budgetBytes) {
          this.info(line);
          continue;
        }
        const heaviest = [...files]
          .filter((file) => weights.has(file))
          .map((file) => ({ file, brotli: weights.size(file).brotli }))
          .sort((a, b) => b.brotli - a.brotli)
          .map((f) => `  ${kB(f.brotli).padStart(9)}  ${weights.nameOf(f.file)}`);
        over.push(`${line}:\n${heaviest.join('\n')}`);
      }
      if (over.length)
        this.error(
          `${over.join('\n')}\nLoad what the first screen does not show lazily, once it is usable (and name it in \`later\`).`,
        );
    },
  };
}
