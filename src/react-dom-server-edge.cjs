// React's server renderer for workerd without the legacy string renderer that "react-dom/server"
// (server.edge.js) bundles beside it: renderToString is never called here, and its ~270 KB
// (~40 KB gzip) of CommonJS cannot be tree-shaken. wrangler.toml aliases "react-dom/server" to
// this file for the worker bundle (vitest.config.ts does the same for the worker tests); the
// package's "exports" hide cjs/, hence the relative path.
"use strict";

const { AsciiFirstTextEncoder } = require("./text-encoder.cjs");

// React makes its one TextEncoder when its module runs: it gets the faster one (see
// text-encoder.cjs), and the global is put back at once.
const NativeTextEncoder = globalThis.TextEncoder;
globalThis.TextEncoder = AsciiFirstTextEncoder;
try {
  module.exports =
    process.env.NODE_ENV === "production"
      ? require("../node_modules/react-dom/cjs/react-dom-server.edge.production.js")
      : require("../node_modules/react-dom/cjs/react-dom-server.edge.development.js");
} finally {
  globalThis.TextEncoder = NativeTextEncoder;
}
