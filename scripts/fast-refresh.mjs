// React Fast Refresh for development builds of the client (`npm run dev`), never production ones:
// an esbuild plugin that runs react-refresh's Babel transform on the app's component files and
// starts the entry with the refresh runtime (client/dev/refresh.ts), and, after each rebuild, what
// the browser should do about it: import changed chunks and refresh, swap the stylesheet, or
// reload. scripts/build-client.mjs uses both with --dev; scripts/dev.mjs sends the updates on.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const RUNTIME = path.join(root, "client/dev/refresh.ts");

/** Component files the transform marks: TSX of the project, never of node_modules. */
const COMPONENT_FILE = /\.tsx$/;
const inProject = (file) =>
  file.startsWith(root + path.sep) && !file.includes(`${path.sep}node_modules${path.sep}`);

/** react-refresh's registrations added to `source` (one line of prelude keeps line numbers). */
async function withRegistrations(source, absolute) {
  const file = path.relative(root, absolute).split(path.sep).join("/");
  // Loaded only when a dev build runs: production builds never need Babel.
  const babel = await import("@babel/core");
  try {
    const { code } = await babel.transformAsync(source, {
      filename: absolute,
      babelrc: false,
      configFile: false,
      retainLines: true,
      parserOpts: { plugins: ["jsx", "typescript"] },
      plugins: [["react-refresh/babel", { skipEnvCheck: true }]],
    });
    const runtime = JSON.stringify(RUNTIME);
    const prelude =
      `import { register as __refreshRegister, signature as $RefreshSig$ } from ${runtime};` +
      `const $RefreshReg$ = (type, id) => __refreshRegister(type, ${JSON.stringify(file)} + " " + id);`;
    return { contents: prelude + code, loader: "tsx", resolveDir: path.dirname(absolute) };
  } catch (error) {
    const message = String(error.message)
      .replace(/^[^:]*: /, "")
      .replace(/ \(\d+:\d+\)$/, "");
    const loc = error.loc ?? {};
    return { errors: [{ text: message, location: { file, line: loc.line ?? 1, column: loc.column ?? 0 } }] };
  }
}

/**
 * The esbuild plugin, wrapped around `inner` (the client build's source plugin): a project file
 * is read as `inner` would give it, then each component file gets react-refresh's registrations,
 * and the entry becomes the refresh runtime followed by a dynamic import of the real entry, so
 * the runtime is hooked into React before React loads.
 */
export function fastRefresh({ entry, inner }) {
  const entryFile = path.resolve(root, entry);
  const APP_ENTRY = "fast-refresh-app-entry";
  return {
    name: "fast-refresh",
    setup(build) {
      // inner's loaders of project files run first; their output is what the transform reads.
      const innerLoads = [];
      inner.setup({
        ...build,
        onLoad: (options, callback) =>
          options.namespace === "file"
            ? innerLoads.push({ options, callback })
            : build.onLoad(options, callback),
      });
      const load = async (args) => {
        for (const { options, callback } of innerLoads) {
          if (!options.filter.test(args.path)) continue;
          const result = await callback({ ...args, namespace: "file" });
          if (result) return result;
        }
        return undefined;
      };
      build.onResolve({ filter: new RegExp(`^${APP_ENTRY}$`) }, () => ({
        path: entryFile,
        namespace: APP_ENTRY,
      }));
      build.onLoad({ filter: /.*/, namespace: APP_ENTRY }, async (args) => {
        const given = await load(args);
        return withRegistrations(given?.contents ?? (await readFile(args.path, "utf8")), args.path);
      });
      build.onLoad({ filter: /.*/, namespace: "file" }, async (args) => {
        if (!COMPONENT_FILE.test(args.path) || !inProject(args.path)) return load(args);
        if (args.path === entryFile) {
          return {
            contents: `import ${JSON.stringify(RUNTIME)};\nawait import("${APP_ENTRY}");\n`,
            loader: "ts",
            resolveDir: root,
          };
        }
        const given = await load(args);
        return withRegistrations(given?.contents ?? (await readFile(args.path, "utf8")), args.path);
      });
    },
  };
}

/** A hash of each input file of a build (its content), to tell which changed between builds. */
export async function inputHashes(metafile) {
  const hashes = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    if (input.includes(":") || input.startsWith("node_modules/")) continue;
    try {
      hashes.set(
        input,
        createHash("sha256")
          .update(await readFile(path.join(root, input)))
          .digest("hex"),
      );
    } catch {
      // a virtual input
    }
  }
  return hashes;
}

/**
 * A hash of each input's code in the chunks of an unminified build (esbuild opens each module's
 * code with a `// path` line), without the build's trailers: whether an edit changed what the
 * browser runs, whatever it did to the server's part of the same file (a page's loader).
 */
export async function clientCode(metafile) {
  const code = new Map();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!file.endsWith(".js")) continue;
    const text = await readFile(path.join(root, file), "utf8");
    let current = null;
    for (const line of text.split("\n")) {
      if (line.startsWith("//# ") || line.startsWith("try{(self._sentryDebugIds")) continue;
      const opens = /^\/\/ (\S+)$/.exec(line);
      if (opens && output.inputs[opens[1]]) current = opens[1];
      else if (current) code.set(current, (code.get(current) ?? "") + line + "\n");
    }
  }
  return new Map([...code].map(([input, text]) => [input, createHash("sha256").update(text).digest("hex")]));
}

/**
 * What the browser should do after a rebuild: nothing ("none": no input's client code changed,
 * as when only a page's loader did), swap the stylesheet (only CSS changed), import the route
 * chunks holding the changed components and refresh, or reload (anything else: the entry, the
 * runtime, a module that is not a component file).
 */
export function updateFor({ before, after, metafile, manifest, outdir }) {
  const changed = [...after.inputs.keys()].filter(
    (input) =>
      before.inputs.get(input) !== after.inputs.get(input) &&
      (input.endsWith(".css") || before.code.get(input) !== after.code.get(input)),
  );
  if (changed.length === 0) return { type: "none" };
  if (changed.every((input) => input.endsWith(".css"))) return { type: "css", href: manifest.css };
  if (!changed.every((input) => COMPONENT_FILE.test(input) && !input.startsWith("client/"))) {
    return { type: "reload" };
  }
  const url = (file) => `/assets/${path.relative(outdir, path.join(root, file)).split(path.sep).join("/")}`;
  const routeChunks = new Set(Object.values(manifest.routes).map((route) => route.module));
  const chunks = new Set();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (!file.endsWith(".js")) continue;
    const holds = changed.filter((input) => (output.inputs[input]?.bytesInOutput ?? 0) > 0);
    if (holds.length === 0) continue;
    // Only a route's own chunk is safe to run again: the entry's would hydrate a second time.
    if (!routeChunks.has(url(file))) return { type: "reload" };
    chunks.add(url(file));
  }
  return chunks.size > 0 ? { type: "refresh", chunks: [...chunks] } : { type: "reload" };
}
