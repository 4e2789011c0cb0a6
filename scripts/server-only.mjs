// The one rule for what may never reach a browser chunk: the server runtime's folder
// (src/server/), any `*.server.ts(x)` module (a product's database code, secrets), and the worker
// entry. The client build enforces it (verge/vite, src/vite/server-only.ts);
// test/node/server-only.test.ts proves it on the real build output.

const SERVER_ONLY = /(^|\/)src\/server\/|(^|\/)src\/worker\.tsx?$|\.server\.tsx?$/;

/** Whether a module path (root-relative, as the build names it, or absolute) is server-only. */
export function isServerOnly(path) {
  return SERVER_ONLY.test(path.replace(/^[\w-]+:/, ""));
}
