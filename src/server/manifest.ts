// The client build's manifest (verge/vite makes it; the worker imports it from
// virtual:verge/manifest): the build id, the entry, and the files each page needs in the browser.

export interface ClientManifest {
  build: string;
  /**
   * "development" under `vite dev` only: the one thing the runtime knows of the dev server
   * (dev.ts). The worker tests and every build are "production".
   */
  mode: "development" | "production";
  /** The entry module's URL, and the chunks it imports statically. */
  entry: string;
  entryImports: string[];
  /** Stylesheets every page links. */
  css: string[];
  /**
   * Under `vite dev` only: the stylesheets the entry imports, as Vite serves them now, each with
   * its module id. Every document inlines them in <head> (src/vite/dev-css.ts).
   */
  devStyles?: DevStyle[];
  /**
   * By page module (root-relative source path): its chunk, the chunks that chunk imports beyond
   * the entry's, and the stylesheets it brings beyond the entry's.
   */
  modules: Record<string, { file: string; imports: string[]; css: string[] }>;
}

/** A stylesheet under `vite dev`: its module id (what Vite's client knows it by) and its text. */
export interface DevStyle {
  id: string;
  text: string;
}

/** What `vite dev` tells the worker when a stylesheet in `devStyles` is saved: them all, anew. */
export const DEV_STYLES_EVENT = "verge:dev-styles";

/**
 * The export verge/vite adds to a page module in the worker's build: the module's source path,
 * its key in `modules` (under `vite dev`, which has no chunks: the URL its source is served at).
 */
export const MODULE_ID_EXPORT = "__vergeModule";

/** A page module's key in the manifest, if the build gave it one. */
export function moduleId(module: object | null): string | undefined {
  const id = (module as Record<string, unknown> | null)?.[MODULE_ID_EXPORT];
  return typeof id === "string" ? id : undefined;
}

/** What a page loads beyond the entry: module chunks to preload, and stylesheets. */
export interface PageFiles {
  preloads: string[];
  css: string[];
}

/** By manifest and modules (their ids joined): the manifest is fixed for the isolate's life. */
const cache = new WeakMap<ClientManifest, Map<string, PageFiles>>();

/**
 * The module chunks to preload (the entry's imports, the layouts' and the page's chunks) and every
 * stylesheet, for a page rendered from `modules` (its layouts' outermost first, then its own).
 */
export function pageFiles(manifest: ClientManifest, modules: readonly (object | null)[]): PageFiles {
  let byModules = cache.get(manifest);
  if (!byModules) cache.set(manifest, (byModules = new Map()));
  const ids = modules.map(moduleId);
  const key = ids.join("\n");
  let files = byModules.get(key);
  if (!files) {
    const parts = ids.flatMap((id) => (id === undefined ? [] : (manifest.modules[id] ?? [])));
    files = {
      preloads: [
        ...new Set([...manifest.entryImports, ...parts.flatMap((part) => [part.file, ...part.imports])]),
      ],
      css: [...new Set([...manifest.css, ...parts.flatMap((part) => part.css)])],
    };
    byModules.set(key, files);
  }
  return files;
}
