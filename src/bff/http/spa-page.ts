import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pageDataSchema, type PageData } from '@/shared/contract/page-data';

/** One chunk of Vite's build manifest (`build.manifest`), by the source module it comes from. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Where the build writes its manifest, inside STATIC_DIR (not served: dot folders are ignored). */
export const MANIFEST_PATH = '.vite/manifest.json';

/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&` escaped, so that no
 * string in it (a flow's text, a brand name) can close the element (`</script>`) or open a comment;
 * U+2028/2029 too, for older parsers. JSON.parse reads the escapes back as the same characters.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

const attribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The built index.html with what a route's first screen needs named in its head, so that the
 * browser fetches it all in one round trip after the page instead of finding it chunk by chunk:
 * module preloads of the route's lazy chunks (from Vite's manifest) and their stylesheets, and the
 * page's data (brand, flow) as JSON, which saves the API calls. Pages are kept once made (a flow
 * and language each; flows and brand are settings, read at start).
 */
export class SpaPage {
  private readonly html: string;
  private readonly manifest: Manifest;
  private readonly inEntry = new Set<string>();
  private readonly made = new Map<string, string>();

  constructor(staticDir: string) {
    this.html = readFileSync(path.join(staticDir, 'index.html'), 'utf8');
    const manifestFile = path.join(staticDir, MANIFEST_PATH);
    this.manifest = existsSync(manifestFile)
      ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest)
      : {};
    // index.html links the entry and its static imports already.
    for (const [id, chunk] of Object.entries(this.manifest))
      if (chunk.isEntry) for (const file of this.filesOf([id]).js) this.inEntry.add(file);
  }

  /** The JS and CSS files of modules and everything they import statically, in load order. */
  private filesOf(modules: string[]) {
    const js: string[] = [];
    const css: string[] = [];
    const seen = new Set<string>();
    const visit = (id: string) => {
      const chunk = this.manifest[id];
      if (!chunk || seen.has(id)) return;
      seen.add(id);
      js.push(chunk.file);
      for (const file of chunk.css ?? []) if (!css.includes(file)) css.push(file);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    modules.forEach(visit);
    return { js, css };
  }

  /** The page for `key`: `modules` (source paths, as the manifest names them) preloaded, `data` inline. */
  render(key: string, modules: string[], data: PageData): string {
    const cached = this.made.get(key);
    if (cached) return cached;
    const { js, css } = this.filesOf(modules);
    const links = [
      // The stylesheet as Vite's loader would add it (it skips one already there), without a flash.
      ...css.map((file) => `<link rel="stylesheet" crossorigin href="/${attribute(file)}">`),
      ...js
        .filter((file) => !this.inEntry.has(file))
        .map((file) => `<link rel="modulepreload" crossorigin href="/${attribute(file)}">`),
      // Checked with the shared schema once per page made: the browser reads it without zod.
      `<script type="application/json" id="page-data">${jsonForScript(pageDataSchema.parse(data))}</script>`,
    ];
    const page = this.html
      // The tab says whose page it is before the script sets the screen's title. Replacements as
      // functions: a replacement string would read `$'`, `$&`, `$\`` in a brand name as patterns.
      .replace(/<title>[^<]*<\/title>/, () => `<title>${attribute(data.brand.name)}</title>`)
      .replace('</head>', () => `${links.join('\n')}\n</head>`);
    // A bounded number of keys (flows × languages), but never let a bug make it grow unbounded.
    if (this.made.size < 1000) this.made.set(key, page);
    return page;
  }
}
