// React's server renderer for workerd without the legacy string renderer that "react-dom/server"
// (server.edge.js) bundles beside it: renderToString is never called here, and its ~270 KB
// (~40 KB gzip) of CommonJS cannot be tree-shaken. wrangler.toml aliases "react-dom/server" to
// this file for the worker bundle; the package's "exports" hide cjs/, hence the relative path.
"use strict";

module.exports =
  process.env.NODE_ENV === "production"
    ? require("../node_modules/react-dom/cjs/react-dom-server.edge.production.js")
    : require("../node_modules/react-dom/cjs/react-dom-server.edge.development.js");
