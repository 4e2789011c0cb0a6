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
   * By page module (root-relative source path): its chunk, the chunks that chunk imports beyond
   * the entry's, and the stylesheets it brings beyond the entry's.
   */
  modules: Record<string, { file: string; imports: string[]; css: string[] }>;
}

/**
 * The export verge/vite adds to a page module in the worker's build: the module's source path,
 * its key in `modules`.
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

/** By manifest and page module: the manifest is fixed for the isolate's life. */
const cache = new WeakMap<ClientManifest, Map<string | undefined, PageFiles>>();

/** The module chunks to preload (the entry's imports and the page's chunks) and every stylesheet. */
export function pageFiles(manifest: ClientManifest, module: object | null): PageFiles {
  let byModule = cache.get(manifest);
  if (!byModule) cache.set(manifest, (byModule = new Map()));
  const id = moduleId(module);
  let files = byModule.get(id);
  if (!files) {
    const page = id === undefined ? undefined : manifest.modules[id];
    files = {
      preloads: [...new Set([...manifest.entryImports, ...(page ? [page.file, ...page.imports] : [])])],
      css: [...new Set([...manifest.css, ...(page?.css ?? [])])],
    };
    byModule.set(id, files);
  }
  return files;
}
