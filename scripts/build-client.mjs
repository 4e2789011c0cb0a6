// Builds a browser bundle: one chunk per route plus shared chunks, minified and content-hashed
// under <out>/client/assets, and <out>/manifest.json for the worker. The product by default:
//   node scripts/build-client.mjs            production build (what deploys and tests use)
//   node scripts/build-client.mjs --dev      development React, readable output
//   node scripts/build-client.mjs --watch    rebuild on changes (with --dev under `npm run dev`)
// Another app on the same runtime (the tests' app): --entry <file> --routes <file> --out <dir>.
// Every chunk carries a Sentry debug ID (scripts/debug-ids.mjs). Its source map goes beside it
// only in development (browser dev tools read it there); a production build serves none, and keeps
// chunks and maps in <out>/sourcemaps/<build id>/ for upload and `npm run logs`.
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { keepBuildMaps } from "./build-maps.mjs";
import { injectDebugId } from "./debug-ids.mjs";
import { isServerOnly } from "./server-only.mjs";
import { clientSource } from "./client-source.mjs";
import { readRouteTable } from "./route-table.mjs";
import { buildState, componentEntries, fastRefresh, updateFor } from "./fast-refresh.mjs";
import { watchSources } from "./watch-sources.mjs";

const root = path.resolve(import.meta.dirname, "..");

/**
 * Served as a static asset: every page may be crawled. A page that must stay out of search
 * results says so itself (robots "noindex" in its meta), as the not-found page does.
 */
const ROBOTS_TXT = "User-agent: *\nAllow: /\n";

/**
 * What the entry loads on every page anyway: the client runtime, and the route-module helpers the
 * route table calls. Each route chunk imports them too, so esbuild, which groups shared code by
 * the exact set of chunks that use it, puts all of it in one shared chunk instead of a handful of
 * tiny ones (each extra file costs its own imports and gzip framing).
 */
const SHELL = ["client/app.tsx", "src/shared/route-module.ts"].map((file) => path.join(root, file));
const importShell = SHELL.map((file) => `import ${JSON.stringify(file)};\n`).join("");

/** The file `verge` names (package.json "exports"). */
const PUBLIC_ENTRY = path.join(root, "src/shared/index.ts");

/**
 * What the last build of `outRoot` found (its metafile), if any: a refresh build's first guess at
 * its component files, and the route table's pages among them (a page read as an entry point must
 * lose its server-only exports too, before the route table names it).
 */
async function lastBuild(outRoot, entry) {
  try {
    const metafile = JSON.parse(await readFile(path.join(outRoot, "client-metafile.json"), "utf8"));
    const pages = Object.keys(metafile.inputs)
      .filter((input) => input.startsWith("client-route:"))
      .map((input) => input.slice("client-route:".length));
    return { components: componentEntries(metafile, entry), pages };
  } catch {
    return { components: [], pages: [] };
  }
}

export const PRODUCT = { entry: "client/entry.tsx", routes: "src/app/routes.ts", out: "dist" };

async function resolvePage(routesFile, specifier) {
  const base = path.resolve(path.dirname(routesFile), specifier);
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`]) {
    try {
      await readFile(candidate);
      return candidate;
    } catch {}
  }
  throw new Error(`${path.relative(root, routesFile)} imports ${specifier}, which does not exist.`);
}

/**
 * In the browser a page module is only its component and title: the route table's
 * import() resolves to a proxy that re-exports those, so loaders and actions (and
 * everything only they import) are tree-shaken out of the client bundle.
 */
function clientRoutes(routesFile, pages) {
  return {
    name: "client-routes",
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.importer !== routesFile || args.kind !== "dynamic-import") return undefined;
        const page = await resolvePage(routesFile, args.path);
        pages.add(page);
        return { path: page, namespace: "client-route" };
      });
      build.onLoad({ filter: /.*/, namespace: "client-route" }, (args) => ({
        contents: `${importShell}export { default, title } from ${JSON.stringify(args.path)};`,
        resolveDir: path.dirname(args.path),
        loader: "ts",
      }));
    },
  };
}

/**
 * Other code-split modules (an import() in client code, e.g. the error reporter's envelope
 * module) import the shell too, for the same reason: one shared chunk, not one per user set.
 */
function lazyShell(routesFile) {
  return {
    name: "lazy-shell",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (
          args.kind !== "dynamic-import" ||
          args.importer === routesFile ||
          args.pluginData === "lazy-shell"
        ) {
          return undefined;
        }
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: "lazy-shell",
        });
        if (resolved.errors.length > 0 || resolved.path.includes("/node_modules/")) return undefined;
        return { path: resolved.path, namespace: "client-lazy" };
      });
      build.onLoad({ filter: /.*/, namespace: "client-lazy" }, async (args) => {
        const source = await readFile(args.path, "utf8");
        const target = JSON.stringify(args.path);
        const reexportDefault = /\bexport\s+default\b/.test(source)
          ? `export { default } from ${target};\n`
          : "";
        return {
          contents: `${importShell}export * from ${target};\n${reexportDefault}`,
          resolveDir: path.dirname(args.path),
          loader: "ts",
        };
      });
    },
  };
}

/** Server-only inputs (scripts/server-only.mjs) that put bytes into a chunk: the build fails on any. */
export function serverOnlyLeaks(metafile) {
  const leaks = [];
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput > 0 && isServerOnly(input)) leaks.push(`${input} -> ${file}`);
    }
  }
  return leaks;
}

/**
 * The build's files (esbuild's outputFiles, not yet written) with a debug ID in every chunk and
 * its map; a production build keeps no map among them (it serves none). Returns what goes into
 * `outdir` and the chunks with their portable maps, for the build's maps folder.
 */
function withDebugIds(outputFiles, { outdir, dev }) {
  const texts = new Map(outputFiles.map((file) => [file.path, file.text]));
  const chunks = [];
  for (const [file, code] of texts) {
    const map = texts.get(`${file}.map`);
    if (!file.endsWith(".js") || map === undefined) continue;
    const injected = injectDebugId(code, map, path.dirname(file));
    texts.set(file, injected.code);
    texts.set(`${file}.map`, injected.map);
    chunks.push({ name: `assets/${path.basename(file)}`, code: injected.code, map: injected.portableMap });
  }
  const files = [...texts]
    .filter(([file]) => dev || !file.endsWith(".map"))
    .map(([file, text]) => ({ name: path.relative(outdir, file), text }));
  return { files, chunks };
}

/**
 * Puts `files` into `dir`, each written in a folder made in `outRoot` (outside what is served,
 * on the same disk) and then renamed in: a server reading `dir` meanwhile (wrangler dev's asset
 * server reads the folder whenever it reloads) finds each file whole or not at all, and never
 * misses one that was there, as it would if the folder were emptied and filled again (esbuild's
 * own writes in watch mode delete the last build's files).
 */
async function putFiles(outRoot, dir, files) {
  const staging = await mkdtemp(path.join(outRoot, ".staging-"));
  try {
    for (const { name, text } of files) {
      await mkdir(path.dirname(path.join(staging, name)), { recursive: true });
      await writeFile(path.join(staging, name), text);
    }
    for (const { name } of files) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await rename(path.join(staging, name), path.join(dir, name));
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Writes `file` by a rename, and only when its text changes: a watcher of it sees real changes. */
async function replaceFile(outRoot, file, text) {
  if ((await readFile(file, "utf8").catch(() => null)) === text) return;
  await putFiles(outRoot, path.dirname(file), [{ name: path.basename(file), text }]);
}

async function writeManifest(result, { routesFile, outdir, outRoot, entry, refresh, watch }) {
  const { outputs } = result.metafile;
  const leaks = serverOnlyLeaks(result.metafile);
  if (leaks.length > 0) {
    throw new Error(
      `server-only code reached a client chunk (src/server/, *.server.ts): ${leaks.join(", ")}`,
    );
  }
  const byEntry = new Map();
  for (const [file, output] of Object.entries(outputs)) {
    if (output.entryPoint) byEntry.set(output.entryPoint, file);
  }
  const staticImports = (file, seen = new Set()) => {
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.kind === "import-statement" && !seen.has(imported.path)) {
        seen.add(imported.path);
        staticImports(imported.path, seen);
      }
    }
    return seen;
  };
  const rel = (file) => `/assets/${path.relative(outdir, path.join(root, file)).split(path.sep).join("/")}`;
  const entryFile = byEntry.get(entry);
  const routes = {};
  const table = await readRouteTable(routesFile, { publicEntry: PUBLIC_ENTRY, scratchDir: outRoot });
  for (const { pattern, page } of table) {
    const chunk = byEntry.get(`client-route:${page}`);
    if (!chunk)
      throw new Error(`no client chunk was built for ${path.relative(root, page)} (route ${pattern})`);
    routes[pattern] = { module: rel(chunk), imports: [...staticImports(chunk)].map(rel) };
  }
  const files = Object.keys(outputs)
    .filter((f) => !f.endsWith(".map"))
    .sort();
  // Under Fast Refresh the build id stays put: a page whose code was refreshed in place still asks
  // for page data as the build it has become (another id would make the worker answer 409).
  const build = refresh ? "dev" : createHash("sha256").update(files.join("\n")).digest("hex").slice(0, 12);
  const manifest = {
    build,
    entry: rel(entryFile),
    entryImports: [...staticImports(entryFile)].map(rel),
    css: outputs[entryFile].cssBundle ? rel(outputs[entryFile].cssBundle) : null,
    routes,
  };
  // Last, and only if it changed: the worker embeds it (wrangler dev rebuilds the worker when it
  // changes), so every file it names is already in place whenever a worker reads it.
  await replaceFile(outRoot, path.join(outRoot, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  // Which inputs reached which chunk: test/node reads it. Outside <out>/client: never served.
  await writeFile(path.join(outRoot, "client-metafile.json"), JSON.stringify(result.metafile));
  // Drop files from earlier builds so <out>/client holds exactly this build. Never in a watch
  // build (`npm run dev`): pages opened before a save still load the files their document named,
  // and the session began with an empty folder.
  const keep = new Set(Object.keys(outputs).map((f) => path.basename(f)));
  for (const name of watch ? [] : await readdir(outdir)) {
    if (!keep.has(name)) await rm(path.join(outdir, name));
  }
  return manifest;
}

/**
 * Builds an app's client. `entry`, `routes` and `out` are relative to the project root; returns
 * the manifest, or (with `watch`) the esbuild context after the first build.
 */
export async function buildClient({
  entry,
  routes,
  out,
  dev = false,
  watch = false,
  devEvents,
  onUpdate = () => {},
  log = console.log,
}) {
  // Fast Refresh (scripts/fast-refresh.mjs): a development build that `npm run dev` serves, whose
  // page follows the events at `devEvents`; `onUpdate` gets what each rebuild means to it, and the
  // manifest it wrote.
  const refresh = dev && devEvents ? devEvents : null;
  let seen = null;
  const routesFile = path.join(root, routes);
  const outRoot = path.join(root, out);
  // Under Fast Refresh each component file is an entry point too (scripts/fast-refresh.mjs), as the
  // last build found them; a build that finds others is built again with them.
  const last = refresh ? await lastBuild(outRoot, entry) : { components: [], pages: [] };
  let components = last.components;
  let rebuilt = false;
  /** Builds again with `components` as they now are (set below: in watch mode, a new context). */
  let again = () => {};
  const outdir = path.join(outRoot, "client/assets");
  // A build starts from an empty folder; a watch build (`npm run dev`, which has just built into
  // it, before wrangler dev serves it) adds to what is there: emptied, it would be served so.
  if (!watch) await rm(path.join(outRoot, "client"), { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  await replaceFile(
    outRoot,
    path.join(outRoot, "client/_headers"),
    "/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n",
  );
  await replaceFile(outRoot, path.join(outRoot, "client/robots.txt"), ROBOTS_TXT);
  /** The route table's page modules, as the build finds them. */
  const pages = new Set(last.pages);
  const manifestPlugin = {
    name: "manifest",
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length > 0) {
          // A component file deleted since it was made an entry point: build again without it.
          const kept = components.filter((file) => existsSync(path.join(root, file)));
          if (kept.length < components.length) {
            components = kept;
            return again();
          }
          const [{ text, location }] = result.errors;
          onUpdate({
            type: "error",
            file: location?.file ?? null,
            line: location?.line ?? null,
            message: text,
          });
          return;
        }
        try {
          const { files, chunks } = withDebugIds(result.outputFiles, { outdir, dev });
          await putFiles(outRoot, outdir, files);
          const manifest = await writeManifest(result, {
            routesFile,
            outdir,
            outRoot,
            entry,
            refresh,
            watch,
          });
          await keepBuildMaps({ appDir: outRoot, build: manifest.build, dev, files: chunks });
          if (watch) log(`[client] rebuilt (build ${manifest.build})`);
          if (refresh) {
            const { metafile } = result;
            const found = componentEntries(metafile, entry);
            if (found.join("\n") !== components.join("\n")) {
              components = found;
              return again();
            }
            const before = seen;
            seen = await buildState(metafile);
            // Built again with other entry points, the chunks are cut anew: the page must load them.
            const update = !before
              ? { type: "ok" }
              : rebuilt
                ? { type: "reload" }
                : updateFor({ before, after: seen, metafile, manifest, outdir });
            rebuilt = false;
            onUpdate(update, manifest);
          }
        } catch (error) {
          if (!watch) throw error;
          console.error(`[client] ${error.message}`);
        }
      });
    },
  };
  const source = clientSource({ entry: PUBLIC_ENTRY, isPage: (file) => pages.has(file) });
  const options = {
    absWorkingDir: root,
    entryPoints: [entry, ...components],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: ["es2022", "chrome111", "firefox114", "safari16.4"],
    outdir,
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    minify: !dev,
    sourcemap: dev ? "linked" : "external",
    metafile: true,
    // The manifest plugin writes the files (putFiles), never esbuild: see there.
    write: false,
    jsx: "automatic",
    legalComments: "none",
    define: {
      "process.env.NODE_ENV": JSON.stringify(dev ? "development" : "production"),
      ...(refresh ? { __VERGE_DEV_EVENTS__: JSON.stringify(refresh) } : {}),
    },
    logLevel: "silent",
    plugins: [
      // Under Fast Refresh, the source plugin runs inside it: its output is what the transform reads.
      refresh ? fastRefresh({ entry, inner: source }) : source,
      clientRoutes(routesFile, pages),
      lazyShell(routesFile),
      manifestPlugin,
    ],
  };
  const withEntries = () => ({ ...options, entryPoints: [entry, ...components] });
  if (watch) {
    // Not esbuild's own watch: saves are built once whole (scripts/watch-sources.mjs). A failed
    // build is already reported (the manifest plugin, esbuild's log); the next save retries.
    let context = null;
    let first = null;
    const start = async () => {
      context = await esbuild.context({ ...withEntries(), logLevel: "warning" });
      first = await context.rebuild().catch(() => null);
    };
    // Not from inside the build that asked: a context is disposed once its build has ended.
    again = () =>
      void setTimeout(async () => {
        rebuilt = seen !== null;
        await context.dispose();
        await start();
      });
    await start();
    const inputs = [entry, routes, ...Object.keys(first?.metafile?.inputs ?? {})];
    watchSources({ root, inputs, rebuild: () => context.rebuild().catch(() => {}) });
    return { dispose: () => context.dispose() };
  }
  let once = false;
  again = () => void (once = true);
  try {
    do {
      once = false;
      await esbuild.build(withEntries());
    } while (once);
  } catch (error) {
    // esbuild's error lists each message; the manifest plugin's carry the reason in plain words.
    const messages = error.errors?.map((e) => e.text).join("\n") ?? error.message;
    throw new Error(`client build of ${entry} failed:\n${messages}`);
  }
  return JSON.parse(await readFile(path.join(outRoot, "manifest.json"), "utf8"));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      dev: { type: "boolean", default: false },
      watch: { type: "boolean", default: false },
      entry: { type: "string", default: PRODUCT.entry },
      routes: { type: "string", default: PRODUCT.routes },
      out: { type: "string", default: PRODUCT.out },
      "dev-events": { type: "string" },
    },
  });
  const started = performance.now();
  try {
    // Under `npm run dev` (an IPC channel to scripts/dev.mjs), each rebuild's meaning goes there,
    // with the files every document of the build names (dev.mjs waits until the worker names them).
    const onUpdate = (update, manifest) =>
      process.send?.({ update, names: manifest ? [manifest.entry, manifest.css].filter(Boolean) : [] });
    const result = await buildClient({ ...values, devEvents: values["dev-events"], onUpdate });
    if (values.watch) console.log("[client] watching client/ and src/ for changes");
    else {
      const ms = Math.round(performance.now() - started);
      console.log(
        `[client] built ${Object.keys(result.routes).length} routes in ${ms} ms (build ${result.build})`,
      );
    }
  } catch (error) {
    console.error(`[client] ${error.message}`);
    process.exit(1);
  }
}
