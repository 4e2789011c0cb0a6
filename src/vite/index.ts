/// <reference types="node" />
// verge/vite: what is verge's own in a Vite build, beside @vitejs/plugin-react and
// @cloudflare/vite-plugin: the client manifest the worker imports, server-only code kept out of
// the browser, Sentry debug IDs and the maps folder, and the dev server's hooks into the page.
// Build-time code: the one folder under src/ that runs in Node, never in a bundle.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import compression from "compression";
import type { Connect, Plugin, ResolvedConfig, ViteDevServer } from "vite";
import { MODULE_ID_EXPORT, type ClientManifest } from "../server/manifest.ts";
import { keepBuildMaps } from "../../scripts/build-maps.mjs";
import { debugIdSnippet, readDebugId, withDebugId } from "../../scripts/debug-ids.mjs";
import { isServerOnly } from "../../scripts/server-only.mjs";
import { clientManifest, type ClientChunk } from "./client-manifest.ts";
import { localVars } from "./local.ts";
import { withoutServerExports } from "./server-exports.ts";
import { serverEdits } from "./dev-data.ts";
import { markRuns } from "./dev-refresh.ts";

export { localVars };

/** The browser's dev hooks (client/dev.ts). */
const DEV_CLIENT = fileURLToPath(new URL("../../client/dev.ts", import.meta.url));

const IMMUTABLE_ASSETS = "/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n";

/** The module the worker entry imports its client manifest from. */
export const MANIFEST_MODULE = "virtual:verge/manifest";
const RESOLVED_MANIFEST = `\0${MANIFEST_MODULE}`;

export interface VergeOptions {
  /** The browser entry, from the project root (default `client/entry.tsx`). */
  entry?: string;
}

/**
 * The dev server's manifest: the entry as Vite serves it, which loads everything else (the page's
 * stylesheets come with its modules).
 */
function devManifest(entry: string): ClientManifest {
  return { build: "dev", mode: "development", entry: `/${entry}`, entryImports: [], css: [], modules: {} };
}

/** Where a client build leaves its manifest and chunks for tools and tests (never served). */
export const BUILD_REPORT = "client-build.json";

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

/** `react-dom/server` for the worker: React's edge renderer alone (see resolveId below). */
function edgeRenderer(root: string, production: boolean): string {
  const pkg = createRequire(path.join(root, "package.json")).resolve("react-dom/package.json");
  return path.join(
    path.dirname(pkg),
    "cjs",
    `react-dom-server.edge.${production ? "production" : "development"}.js`,
  );
}

export function verge({ entry = "client/entry.tsx" }: VergeOptions = {}): Plugin {
  let config: ResolvedConfig;
  let server: ViteDevServer | undefined;
  /** The client build's manifest, which the worker build (after it) embeds. */
  let built: ClientManifest | undefined;
  /** What the browser was last given of each file, before other transforms (dev-data.ts). */
  const browserSource = new Map<string, string>();
  const rel = (id: string) => path.relative(config.root, id.split("?")[0]!).split(path.sep).join("/");
  const isClient = (plugin: { environment?: { config: { consumer: string } } }) =>
    plugin.environment?.config.consumer === "client";
  return {
    name: "verge",
    // Before Vite's own resolver (react-dom/server below) and transforms (the server exports).
    enforce: "pre",
    // One instance for every environment's build: the worker's reads what the client's found.
    sharedDuringBuild: true,
    config(user, env) {
      const production = env.command === "build";
      const entryPath = path.resolve(user.root ?? process.cwd(), entry);
      return {
        server: {
          // wrangler dev's port, unless set elsewhere.
          port: user.server?.port ?? 8787,
          // A save is seen once the file is whole: an editor that writes in place empties the file,
          // then writes it, and the watcher keeps one change of a file per 50 ms, so it could see
          // the empty moment and drop the write (the page then kept a fixed syntax error's overlay).
          watch: { awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 }, ...user.server?.watch },
        },
        preview: { port: user.preview?.port ?? 8787 },
        environments: {
          client: {
            build: {
              rollupOptions: {
                input: entry,
                // What every page loads, in one chunk beside the entry rather than one per set of
                // importers: each file costs a request, its imports and its gzip framing. Not the
                // entry's own module: it awaits the page's chunk, which imports the shell.
                output: {
                  codeSplitting: {
                    groups: [{ name: "shell", tags: ["$initial"], test: (id: string) => id !== entryPath }],
                  },
                },
              },
              // The maps go to the build's maps folder (writeBundle), never beside the chunks.
              sourcemap: production ? "hidden" : true,
            },
          },
        },
        builder: {
          // The client first: the worker embeds its manifest. The Cloudflare plugin builds the
          // worker next, as its own last step.
          async buildApp(builder) {
            await builder.build(builder.environments.client!);
          },
        },
      };
    },
    configEnvironment(name, _, env) {
      // The worker's bundle is one file (`index.js`, pages included), minified as the client's, with
      // a source map for `npm run logs` and Sentry that is never served.
      if (name === "client") return undefined;
      return {
        build: {
          sourcemap: true,
          minify: env.command === "build",
          rollupOptions: { output: { codeSplitting: false } },
        },
      };
    },
    configResolved(resolved) {
      config = resolved;
      // What `vite build` writes is what a plain `wrangler deploy` ships: never development React,
      // served source maps or dev hooks.
      if (resolved.command === "build" && !resolved.isProduction) {
        throw new Error(
          `verge builds for production only (this build's mode is "${resolved.mode}", NODE_ENV ` +
            `${process.env.NODE_ENV ?? "unset"}): run \`npm run build\`; \`npm run dev\` needs no build.`,
        );
      }
    },
    configureServer(devServer) {
      server = devServer;
    },
    configurePreviewServer(preview) {
      // As Cloudflare answers deployed: text compressed for a client that accepts it, each chunk
      // flushed as it comes, so a streamed page stays streamed. Before the Cloudflare plugin's
      // handler (this plugin runs first), which then writes through it.
      // (Typed for Express; it takes Node's own request and response, as Connect hands them.)
      const gzip = compression({
        flush: zlib.constants.Z_SYNC_FLUSH,
      }) as unknown as Connect.NextHandleFunction;
      preview.middlewares.use(gzip);
    },
    resolveId(id) {
      if (id === MANIFEST_MODULE) return RESOLVED_MANIFEST;
      // The worker renders with the edge build's renderToReadableStream; `react-dom/server` for
      // workerd would bring React's legacy string renderer too (~40 KB gzip nothing calls). The
      // same file holds `prerender` (react-dom/static), for pages with holes (server/shell.tsx).
      if (/^react-dom\/(server|static)$/.test(id) && !isClient(this) && config.command === "build") {
        return edgeRenderer(config.root, config.isProduction);
      }
      return undefined;
    },
    async load(id) {
      if (id !== RESOLVED_MANIFEST) return undefined;
      const manifest =
        config.command === "build"
          ? built
          : config.mode === "test"
            ? await testManifest(path.resolve(config.root, config.build.outDir))
            : devManifest(entry);
      if (!manifest) this.error("the worker was built before the client: build with `vite build`");
      return `export default ${JSON.stringify(manifest)};`;
    },
    transform: {
      order: "pre",
      handler(code, id) {
        if (id.includes("/node_modules/") || id.startsWith("\0")) return undefined;
        const file = rel(id);
        if (!isClient(this)) {
          // A page module tells the worker its key in the manifest (server/manifest.ts).
          if (!built?.modules[file]) return undefined;
          return {
            code: `${code}\nexport const ${MODULE_ID_EXPORT} = ${JSON.stringify(file)};\n`,
            map: null,
          };
        }
        if (isServerOnly(file)) {
          this.error(
            `${file} is server-only (src/server/, *.server.ts, the worker entry) and may not reach the browser`,
          );
        }
        const stripped = /\.[cm]?[jt]sx?$/.test(file) ? withoutServerExports(file, code) : null;
        if (server) browserSource.set(id.split("?")[0]!, stripped ?? code);
        // The dev server's entry loads Vite's client, React Refresh's runtime and verge's dev hooks
        // before anything else (React Refresh must hook into React before React loads).
        if (server && file === entry) {
          const first = ["/@vite/client", "@vitejs/plugin-react/preamble", DEV_CLIENT];
          return `${first.map((module) => `import ${JSON.stringify(module)};`).join(" ")} ${stripped ?? code}`;
        }
        const served = (server && markRuns(file, stripped ?? code)) || stripped;
        return served === null ? undefined : { code: served, map: null };
      },
    },
    // Last: Vite's own generateBundle rewrites a chunk that preloads others (`__vite__mapDeps`) and
    // replaces its map, which would drop the debug ID and the root-relative sources from it.
    generateBundle: {
      order: "post",
      handler(options, bundle) {
        const chunks: ClientChunk[] = [];
        for (const output of Object.values(bundle)) {
          if (output.type !== "chunk") continue;
          // A Sentry debug ID from the chunk's content (a rebuild of the same sources gives the same
          // one), appended once the chunk is minified, so no mapping moves.
          output.code = withSnippet(output.code, debugIdSnippet(output.code));
          if (isClient(this)) {
            const leaks = Object.entries(output.modules)
              .filter(([id, module]) => module.renderedLength > 0 && isServerOnly(rel(id)))
              .map(([id]) => rel(id));
            if (leaks.length > 0) {
              this.error(
                `server-only code reached the browser chunk ${output.fileName}: ${leaks.join(", ")}`,
              );
            }
          }
          chunks.push({
            fileName: output.fileName,
            isEntry: output.isEntry,
            isDynamicEntry: output.isDynamicEntry,
            module: output.facadeModuleId ? rel(output.facadeModuleId) : null,
            imports: output.imports,
            css: [...(output.viteMetadata?.importedCss ?? [])],
          });
        }
        if (isClient(this)) {
          built = clientManifest(chunks, entry);
          // Every page may be crawled (one that must not says so in its meta); hashed files are
          // cached for a year by Workers Static Assets.
          this.emitFile({ type: "asset", fileName: "robots.txt", source: "User-agent: *\nAllow: /\n" });
          this.emitFile({ type: "asset", fileName: "_headers", source: IMMUTABLE_ASSETS });
        }
        for (const output of Object.values(bundle)) {
          if (output.type !== "asset" || !output.fileName.endsWith(".js.map")) continue;
          const map = JSON.parse(String(output.source));
          const chunk = bundle[output.fileName.slice(0, -4)];
          if (chunk?.type !== "chunk") continue;
          output.source = withDebugId(
            map,
            chunk.code,
            path.join(options.dir!, path.dirname(output.fileName)),
          );
        }
      },
    },
    async writeBundle(options, bundle) {
      if (!built) return;
      const outDir = options.dir!;
      const files = [];
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        const map = bundle[`${output.fileName}.map`];
        files.push({
          name: output.fileName,
          code: output.code,
          map: map?.type === "asset" ? String(map.source) : emptyMap(output.fileName, output.code),
        });
      }
      // The maps folder of the client build both bundles belong to (`npm run logs`, Sentry uploads).
      await keepBuildMaps({ appDir: path.dirname(outDir), build: built.build, dev: false, files });
      if (isClient(this)) {
        // The production client serves no map.
        await Promise.all(files.map((file) => rm(path.join(outDir, `${file.name}.map`), { force: true })));
        const report = { manifest: built, chunks: Object.fromEntries(chunksOf(bundle, rel)) };
        await mkdir(path.dirname(outDir), { recursive: true });
        await writeFile(path.join(path.dirname(outDir), BUILD_REPORT), JSON.stringify(report, null, 2));
      }
    },
    hotUpdate: serverEdits(browserSource),
  };
}

/**
 * The map of a chunk with no code of its own (the entry, when the shell holds what it imports),
 * which Rolldown gives none: it still pairs the chunk's debug ID for Sentry.
 */
function emptyMap(fileName: string, code: string): string {
  const id = readDebugId(code);
  return JSON.stringify({
    version: 3,
    file: path.basename(fileName),
    sources: [],
    names: [],
    mappings: "",
    debug_id: id,
    debugId: id,
  });
}

/** `code` with `snippet` appended, before its `//# sourceMappingURL=` line if any (which stays last). */
function withSnippet(code: string, snippet: string): string {
  const mapUrl = /\n\/\/# sourceMappingURL=[^\n]*\n?$/.exec(code);
  const body = mapUrl ? code.slice(0, mapUrl.index) : code.replace(/\n$/, "");
  return `${body}\n${snippet}${mapUrl ? `${mapUrl[0].trim()}\n` : ""}`;
}

/** Each chunk's modules that put bytes in it, for the build checks in test/node. */
function chunksOf(bundle: Record<string, { type: string }>, rel: (id: string) => string) {
  return Object.values(bundle).flatMap((output) => {
    if (output.type !== "chunk") return [];
    const chunk = output as unknown as {
      fileName: string;
      modules: Record<string, { renderedLength: number }>;
    };
    const modules = Object.entries(chunk.modules).filter(([, m]) => m.renderedLength > 0);
    return [[chunk.fileName, modules.map(([id]) => rel(id))] as const];
  });
}
