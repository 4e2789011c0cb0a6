// verge:renderer: `react-dom/server` and `react-dom/static` on the server are one of React's
// server builds, the same under `vite dev`, the worker tests and the build: its Node build by
// default (web-stream `renderToReadableStream`, `resume` and `prerender`, on workerd's
// `nodejs_compat`), or its edge build. The build takes React's file of that build alone: the
// package's own entries would also bring React's legacy string renderer (~40 KB gzip nothing
// calls). `react-dom/server.edge` (`static.edge`) is the edge build whatever is chosen (the
// benchmark's floor imports it). docs/decisions.md, "The worker bundle", says why.
import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";
import { isClient, type Verge } from "./context.ts";

/** The module that names the renderer chosen. */
const RENDERER_MODULE = "virtual:verge/renderer";

/**
 * Three of the four built-ins React's Node build requires, as objects that load them when first
 * used rather than with the isolate: `util` for the TextEncoder every isolate has, `crypto` for
 * the md5 of `useActionState` keys, `stream` for its Node-stream API, which verge never calls.
 * workerd evaluates node:crypto's and node:stream's JavaScript at start-up otherwise.
 * `async_hooks` stays: React makes its AsyncLocalStorage at once. A React whose file requires
 * them otherwise is left as it is (they load at start-up again, nothing breaks).
 */
const builtin = (name: string) => `globalThis.process.getBuiltinModule("node:${name}")`;
const LAZY_BUILTINS: Record<string, string> = {
  'require("util")': "{ TextEncoder: globalThis.TextEncoder }",
  'require("crypto")': `{ get createHash() { return ${builtin("crypto")}.createHash; } }`,
  'require("stream")': `{ get Readable() { return ${builtin("stream")}.Readable; } }`,
};

/**
 * React's Node build counts each string it writes in UTF-8 bytes (a boundary's size decides
 * whether it is sent apart) with `Buffer.byteLength`: the first call loads node:buffer, and each
 * call crosses into workerd's C++ (its cost: BENCHMARKS.md). The same count in JavaScript:
 * a string without a byte over 0x7f (nearly every one) is its length; otherwise each code unit
 * counts its bytes, a surrogate pair four, a lone surrogate three (written as U+FFFD), as
 * Buffer.byteLength counts them (test/node/utf8-length.test.ts holds it).
 */
export const BYTE_LENGTH_CALL = 'Buffer.byteLength(chunk, "utf8")';
export const UTF8_LENGTH = `var verge$nonAscii = /[^\\0-\\x7f]/;
function verge$utf8Length(text) {
  if (!verge$nonAscii.test(text)) return text.length;
  var bytes = text.length;
  for (var i = 0; i < text.length; i++) {
    var unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit < 0xdc00 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) bytes += 2, i++;
    else bytes += 2;
  }
  return bytes;
}`;

/** Which of React's server builds renders pages. */
export type Renderer = "node" | "edge";

function rendererFile(root: string, renderer: Renderer, production: boolean): string {
  const pkg = createRequire(path.join(root, "package.json")).resolve("react-dom/package.json");
  const mode = production ? "production" : "development";
  return path.join(path.dirname(pkg), "cjs", `react-dom-server.${renderer}.${mode}.js`);
}

export function rendererPlugin(verge: Verge, renderer: Renderer): Plugin {
  return {
    name: "verge:renderer",
    // Before Vite's own resolver.
    enforce: "pre",
    sharedDuringBuild: true,
    resolveId(id, importer, options) {
      if (id === RENDERER_MODULE) return `\0${RENDERER_MODULE}`;
      const named = /^react-dom\/(server|static)(\.edge)?$/.exec(id);
      if (!named || isClient(this)) return undefined;
      const { config } = verge;
      const chosen = named[2] ? "edge" : renderer;
      if (config.command === "build") return rendererFile(config.root, chosen, config.isProduction);
      // Served (`vite dev`, the worker tests): the package's entry of that build, which Vite
      // pre-bundles from CommonJS as it does any package (a file named by path it would serve as
      // it is). It also holds the legacy renderer, unused: only the build's bytes count.
      return this.resolve(`react-dom/${named[1]}.${chosen}`, importer, { ...options, skipSelf: true });
    },
    // Served, the chosen build is pre-bundled with the worker's other packages at start: found
    // only by the first request, it made Vite optimize again and reload the program twice.
    configEnvironment(name, config, env) {
      if (name === "client" || env.command === "build") return undefined;
      const entries = ["server", "static"].map((entry) => `react-dom/${entry}.${renderer}`);
      return { optimizeDeps: { include: [...(config.optimizeDeps?.include ?? []), ...entries] } };
    },
    // Its name, for the runtime: a stored shell records the build that wrote it (react-couplings.ts).
    load: (id) => (id === `\0${RENDERER_MODULE}` ? `export default ${JSON.stringify(renderer)};` : undefined),
    transform(code, id) {
      if (!id.endsWith("react-dom-server.node.production.js")) return undefined;
      let lazy = code;
      for (const [required, object] of Object.entries(LAZY_BUILTINS)) lazy = lazy.replace(required, object);
      // One line for another each time, and the function after React's last line: React's line
      // numbers, which its source map gives, hold.
      if (lazy.includes(BYTE_LENGTH_CALL))
        lazy = `${lazy.replace(BYTE_LENGTH_CALL, "verge$utf8Length(chunk)")}\n${UTF8_LENGTH}\n`;
      return { code: lazy, map: null };
    },
  };
}
