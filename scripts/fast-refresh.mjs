// React Fast Refresh for development builds of the client (`npm run dev`), never production ones:
// an esbuild plugin that runs react-refresh's Babel transform on the app's component files and
// starts the entry with the refresh runtime (client/dev/refresh.ts); the component files a refresh
// build makes entry points of their own; and, after each rebuild, what the browser should do about
// it: import changed components and refresh, swap the stylesheet, or reload.
// scripts/build-client.mjs uses all of it with --dev; scripts/dev.mjs sends the updates on.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const RUNTIME = path.join(root, "client/dev/refresh.ts");

/** Component files the transform marks: TSX of the project, never of node_modules. */
const COMPONENT_FILE = /\.tsx$/;
const inProject = (file) =>
  file.startsWith(root + path.sep) && !file.includes(`${path.sep}node_modules${path.sep}`);
/** A build input (project-relative) whose new code can be swapped in: a component file outside client/. */
const refreshable = (input) =>
  COMPONENT_FILE.test(input) &&
  !input.includes(":") &&
  !input.startsWith("client/") &&
  !input.startsWith("node_modules/");

/**
 * The component files of a build, each made an entry point of its own in the next refresh build.
 * esbuild puts the modules reached from the same set of entry points in one chunk; a module that
 * is an entry point itself is reached from a set no other module is, so it gets a chunk of its
 * own, which an edit gives a new name while the chunks it imports keep theirs. Importing that new
 * chunk runs this one module again, and its components register anew (as Vite re-imports a
 * module). Without it, the layout would sit in the entry's chunk and a component two pages share
 * in a chunk with code that must run once, and an edit to either could only reload.
 */
export function componentEntries(metafile, entry) {
  return Object.keys(metafile.inputs)
    .filter((input) => refreshable(input) && input !== entry && existsSync(path.join(root, input)))
    .sort();
}

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

/** What `updateFor` compares between two builds: each input's hash and code, and the files built. */
export async function buildState(metafile) {
  return {
    inputs: await inputHashes(metafile),
    code: await clientCode(metafile),
    files: new Set(Object.keys(metafile.outputs)),
  };
}

/**
 * What the browser should do after a rebuild: nothing ("none": no input's client code changed,
 * as when only a page's loader did), swap the stylesheet (only CSS changed), import the changed
 * component files' entry chunks and refresh, or reload (anything else: the entry, the runtime, a
 * module that is not a component file, or an import that would run again a module the page has
 * already run under another chunk's name, as when an edit moved code between shared chunks).
 */
export function updateFor({ before, after, metafile, manifest, outdir }) {
  const changed = [...after.inputs.keys()].filter(
    (input) =>
      before.inputs.get(input) !== after.inputs.get(input) &&
      (input.endsWith(".css") || before.code.get(input) !== after.code.get(input)),
  );
  if (changed.length === 0) return { type: "none" };
  if (changed.every((input) => input.endsWith(".css"))) return { type: "css", href: manifest.css };
  if (!changed.every(refreshable)) return { type: "reload" };
  const { outputs } = metafile;
  const url = (file) => `/assets/${path.relative(outdir, path.join(root, file)).split(path.sep).join("/")}`;
  const entryChunks = [];
  for (const input of changed) {
    const chunk = Object.keys(outputs).find((file) => outputs[file].entryPoint === input);
    // A component file this build did not yet make an entry point (a new one): the next build will.
    if (!chunk) return { type: "reload" };
    entryChunks.push(chunk);
  }
  // What importing those chunks runs: each, and what it imports that the last build did not have.
  const runs = new Set(entryChunks);
  for (const file of runs) {
    for (const imported of outputs[file].imports) {
      if (imported.kind === "import-statement" && !before.files.has(imported.path)) runs.add(imported.path);
    }
  }
  for (const file of runs) {
    const holds = Object.entries(outputs[file].inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([input]) => input);
    // Only a changed component's own chunk is safe to run again (with what only it imports): a
    // new chunk holding code that did not change is code the page already ran under another name.
    const safe =
      entryChunks.includes(file) ||
      (holds.some((input) => changed.includes(input)) &&
        holds.every((input) => !input.includes(":") && !input.startsWith("client/")));
    if (!safe) return { type: "reload" };
  }
  return { type: "refresh", chunks: entryChunks.map(url) };
}
