// Builds the browser bundle: one chunk per route plus shared chunks, minified and
// content-hashed under dist/client/assets, and dist/manifest.json for the worker.
//   node scripts/build-client.mjs            production build (what deploys and tests use)
//   node scripts/build-client.mjs --dev      development React, readable output, and --watch
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");
const watch = process.argv.includes("--watch");
const outdir = path.join(root, "dist/client/assets");
const manifestPath = path.join(root, "dist/manifest.json");
/** esbuild's metafile (which inputs reached which chunk): test/node reads it. Outside dist/client: not served. */
const metafilePath = path.join(root, "dist/client-metafile.json");
const routesFile = path.join(root, "src/app/routes.ts");
const ROUTE_LINE = /page\(\s*"([^"]+)"\s*,\s*\(\)\s*=>\s*import\(\s*"([^"]+)"\s*\)\s*\)/g;
/** Modules that must never reach a browser: they hold loaders, actions, database access or secrets. */
const SERVER_ONLY =
  /(\.server\.tsx?$)|(\/src\/(worker|app\/db\/|handler|render|page-data|actions|relay|reporting|logger|security|errors)\b)|(\/node_modules\/(toucan-js|hono|@sentry\/core)\/)/;

/** Reads the route table's lines: pattern -> absolute page file. */
async function readRouteTable() {
  const source = await readFile(routesFile, "utf8");
  const lines = [...source.matchAll(ROUTE_LINE)];
  const calls = source.match(/\bpage\(/g)?.length ?? 0;
  if (lines.length !== calls) {
    throw new Error(
      `src/app/routes.ts: ${calls - lines.length} route line(s) are not in the form ` +
        `page("/path", () => import("./pages/name")); the build maps routes to chunks by that form.`,
    );
  }
  return lines.map(([, pattern, specifier]) => ({ pattern, specifier }));
}

async function resolvePage(specifier) {
  const base = path.resolve(path.dirname(routesFile), specifier);
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`]) {
    try {
      await readFile(candidate);
      return candidate;
    } catch {}
  }
  throw new Error(`src/app/routes.ts imports ${specifier}, which does not exist.`);
}

/**
 * What the entry loads on every page anyway. Each route chunk imports it too, so esbuild, which
 * groups shared code by the exact set of chunks that use it, puts all of it in one shared chunk
 * instead of a handful of tiny ones (each extra file costs its own imports and gzip framing).
 */
const SHELL = path.join(root, "client/app.tsx");

/**
 * In the browser a page module is only its component and title: the route table's
 * import() resolves to a proxy that re-exports those, so loaders and actions (and
 * everything only they import) are tree-shaken out of the client bundle.
 */
const clientRoutes = {
  name: "client-routes",
  setup(build) {
    build.onResolve({ filter: /^\.\/pages\// }, async (args) => {
      if (args.importer !== routesFile) return undefined;
      return { path: await resolvePage(args.path), namespace: "client-route" };
    });
    build.onLoad({ filter: /.*/, namespace: "client-route" }, (args) => ({
      contents: `import ${JSON.stringify(SHELL)};\nexport { default, title } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
      loader: "ts",
    }));
  },
};

/**
 * Other code-split modules (an import() in client code, e.g. the error reporter's envelope
 * module) import the shell too, for the same reason: one shared chunk, not one per user set.
 */
const lazyShell = {
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
        contents: `import ${JSON.stringify(SHELL)};\nexport * from ${target};\n${reexportDefault}`,
        resolveDir: path.dirname(args.path),
        loader: "ts",
      };
    });
  },
};

const rel = (file) => `/assets/${path.relative(outdir, path.join(root, file)).split(path.sep).join("/")}`;

async function writeManifest(result) {
  const { outputs } = result.metafile;
  for (const [file, output] of Object.entries(outputs)) {
    const leaked = Object.keys(output.inputs).filter(
      (input) => output.inputs[input].bytesInOutput > 0 && SERVER_ONLY.test(`/${input}`),
    );
    if (leaked.length > 0) {
      throw new Error(`server-only code reached the client chunk ${file}: ${leaked.join(", ")}`);
    }
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
  const entryFile = byEntry.get("client/entry.tsx");
  const routes = {};
  for (const { pattern, specifier } of await readRouteTable()) {
    const page = path
      .relative(root, await resolvePage(specifier))
      .split(path.sep)
      .join("/");
    const chunk = byEntry.get(`client-route:${path.join(root, page)}`);
    if (!chunk) throw new Error(`no client chunk was built for ${page} (route ${pattern})`);
    routes[pattern] = { module: rel(chunk), imports: [...staticImports(chunk)].map(rel) };
  }
  const files = Object.keys(outputs)
    .filter((f) => !f.endsWith(".map"))
    .sort();
  const build = createHash("sha256").update(files.join("\n")).digest("hex").slice(0, 12);
  const manifest = {
    build,
    entry: rel(entryFile),
    entryImports: [...staticImports(entryFile)].map(rel),
    css: outputs[entryFile].cssBundle ? rel(outputs[entryFile].cssBundle) : null,
    routes,
  };
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
  await writeFile(metafilePath, JSON.stringify(result.metafile));
  // Drop files from earlier builds so dist/client holds exactly this build.
  const keep = new Set(Object.keys(outputs).map((f) => path.basename(f)));
  for (const name of await readdir(outdir)) {
    if (!keep.has(name)) await rm(path.join(outdir, name));
  }
  return manifest;
}

const manifestPlugin = {
  name: "manifest",
  setup(build) {
    build.onEnd(async (result) => {
      if (result.errors.length > 0) return;
      try {
        const manifest = await writeManifest(result);
        if (watch) console.log(`[client] rebuilt (build ${manifest.build})`);
      } catch (error) {
        result.errors.push({ text: error.message });
        if (!watch) throw error;
        console.error(`[client] ${error.message}`);
      }
    });
  },
};

await rm(path.join(root, "dist/client"), { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
await writeFile(
  path.join(root, "dist/client/_headers"),
  "/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n",
);

const options = {
  absWorkingDir: root,
  entryPoints: ["client/entry.tsx"],
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
  sourcemap: dev ? "linked" : false,
  metafile: true,
  jsx: "automatic",
  legalComments: "none",
  define: { "process.env.NODE_ENV": JSON.stringify(dev ? "development" : "production") },
  logLevel: watch ? "warning" : "error",
  plugins: [clientRoutes, lazyShell, manifestPlugin],
};

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
  console.log("[client] watching client/ and src/ for changes");
} else {
  const started = performance.now();
  await esbuild.build(options);
  const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
  console.log(
    `[client] built ${Object.keys(manifest.routes).length} routes in ${Math.round(performance.now() - started)} ms (build ${manifest.build})`,
  );
}
