// verge:manifest: the client manifest the worker imports (virtual:verge/manifest): made from the
// client build's chunks, the dev server's own under `vite dev`, the last build's for the worker
// tests; each page module of the worker told its key in it; and the build report beside the
// client build (client-build.json) for tools and tests.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { DevEnvironment, Plugin, ViteDevServer } from "vite";
import { DEV_STYLES_EVENT, MODULE_ID_EXPORT, type ClientManifest } from "../server/manifest.ts";
import { clientManifest, type ClientChunk } from "./client-manifest.ts";
import { BUILD_REPORT, isClient, rel, type Verge } from "./context.ts";
import { isServerOnly } from "./server-only.ts";
import { entryStylesheets, stylesOf, type Stylesheet } from "./dev-css.ts";

/** The module the worker entry imports its client manifest from. */
export const MANIFEST_MODULE = "virtual:verge/manifest";
const RESOLVED_MANIFEST = `\0${MANIFEST_MODULE}`;

/** The dev server's manifest without its stylesheets: the entry as Vite serves it. */
const devBase = (entry: string): ClientManifest => ({
  build: "dev",
  mode: "development",
  entry: `/${entry}`,
  entryImports: [],
  css: [],
  modules: {},
});

/**
 * The dev server's manifest, as a module: the entry as Vite serves it, which loads everything else,
 * and the stylesheets it imports, for every document to inline (dev-css.ts). A save of one of them
 * sends the worker them all anew (DEV_STYLES_EVENT); any other save that changes their text (a
 * Tailwind class) reaches the page once its stylesheet module runs, as before.
 */
async function devManifest(client: DevEnvironment, entry: string, sheets: Stylesheet[]): Promise<string> {
  const manifest: ClientManifest = { ...devBase(entry), devStyles: await stylesOf(client, sheets) };
  return `const manifest = ${JSON.stringify(manifest)};
import.meta.hot?.on(${JSON.stringify(DEV_STYLES_EVENT)}, (styles) => { manifest.devStyles = styles; });
export default manifest;`;
}

/**
 * The worker tests' manifest (vitest's mode "test"): the last production build's, so the tests
 * run the runtime as deployed.
 */
async function testManifest(outDir: string): Promise<ClientManifest> {
  const file = path.join(outDir, BUILD_REPORT);
  const report = await readFile(file, "utf8").catch(() => {
    throw new Error(`${file} is missing: run \`npm run build\` (npm test does) before the worker tests`);
  });
  return (JSON.parse(report) as { manifest: ClientManifest }).manifest;
}

export function manifest(verge: Verge): Plugin {
  let server: ViteDevServer | undefined;
  /** Under `vite dev`: the stylesheets the entry imported when the manifest was made. */
  let sheets: Stylesheet[] = [];
  let tested: Promise<ClientManifest> | undefined;
  /** The manifest the worker embeds: the build's, the last build's (tests), the dev server's. */
  const current = async () => {
    const { config } = verge;
    if (config.command === "build") return verge.built;
    if (config.mode === "test")
      return (tested ??= testManifest(path.resolve(config.root, config.build.outDir)));
    return devBase(verge.entry);
  };
  /**
   * Whether `file` is a module the browser imports by itself (a page, a layout): the manifest's
   * modules; under `vite dev` (no chunks), any of the app's modules with a default export.
   */
  const browserModule = async (file: string, code: string) => {
    const known = await current();
    if (known?.mode !== "development") return known?.modules[file] !== undefined;
    return /\.[cm]?[jt]sx?$/.test(file) && !isServerOnly(file) && /\bexport\s+default\b/.test(code);
  };
  return {
    name: "verge:manifest",
    enforce: "pre",
    sharedDuringBuild: true,
    configureServer(devServer) {
      server = devServer;
    },
    resolveId(id) {
      return id === MANIFEST_MODULE ? RESOLVED_MANIFEST : undefined;
    },
    async load(id) {
      if (id !== RESOLVED_MANIFEST) return undefined;
      const { config } = verge;
      if (server && config.command !== "build" && config.mode !== "test") {
        const client = server.environments.client;
        sheets = await entryStylesheets(client, verge.entry);
        return devManifest(client, verge.entry, sheets);
      }
      const manifest = await current();
      if (!manifest) this.error("the worker was built before the client: build with `vite build`");
      return `export default ${JSON.stringify(manifest)};`;
    },
    async hotUpdate({ file, server }) {
      if (isClient(this) || !sheets.some((sheet) => sheet.id === file)) return;
      const styles = await stylesOf(server.environments.client, sheets);
      this.environment.hot.send({ type: "custom", event: DEV_STYLES_EVENT, data: styles });
    },
    transform: {
      order: "pre",
      async handler(code, id) {
        if (isClient(this) || id.includes("/node_modules/") || id.startsWith("\0")) return undefined;
        // A page module tells the worker its key in the manifest (server/manifest.ts), and under
        // `vite dev` its source's URL (server/route-discovery.ts).
        const file = rel(verge, id);
        if (!(await browserModule(file, code))) return undefined;
        // Under `vite dev` the id is the URL the dev server serves the source at (outside the root: /@fs/).
        const served = file.startsWith("../") ? `/@fs${id.split("?")[0]}` : `/${file}`;
        const value = (await current())?.mode === "development" ? served : file;
        return { code: `${code}\nexport const ${MODULE_ID_EXPORT} = ${JSON.stringify(value)};\n`, map: null };
      },
    },
    generateBundle: {
      order: "post",
      handler(_, bundle) {
        if (!isClient(this)) return;
        const chunks: ClientChunk[] = [];
        for (const output of Object.values(bundle)) {
          if (output.type !== "chunk") continue;
          chunks.push({
            fileName: output.fileName,
            isEntry: output.isEntry,
            isDynamicEntry: output.isDynamicEntry,
            // A virtual module's chunk (verge:route-table's) is no module of the app.
            module:
              output.facadeModuleId && !output.facadeModuleId.startsWith("\0")
                ? rel(verge, output.facadeModuleId)
                : null,
            imports: output.imports,
            css: [...(output.viteMetadata?.importedCss ?? [])],
          });
        }
        verge.built = clientManifest(chunks, verge.entry);
      },
    },
    async writeBundle(options, bundle) {
      if (!verge.built || !isClient(this)) return;
      const outDir = options.dir!;
      const report = { manifest: verge.built, chunks: Object.fromEntries(chunksOf(bundle, verge)) };
      await mkdir(path.dirname(outDir), { recursive: true });
      await writeFile(path.join(path.dirname(outDir), BUILD_REPORT), JSON.stringify(report, null, 2));
    },
  };
}

/** Each chunk's modules that put bytes in it, for the build checks in test/node. */
function chunksOf(bundle: Record<string, { type: string }>, verge: Verge) {
  return Object.values(bundle).flatMap((output) => {
    if (output.type !== "chunk") return [];
    const chunk = output as unknown as {
      fileName: string;
      modules: Record<string, { renderedLength: number }>;
    };
    const modules = Object.entries(chunk.modules).filter(([, m]) => m.renderedLength > 0);
    return [[chunk.fileName, modules.map(([id]) => rel(verge, id))] as const];
  });
}
