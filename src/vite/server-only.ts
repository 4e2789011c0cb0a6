// verge:server-only: server code never reaches the browser. A server-only module (isServerOnly
// below) is refused to the client environment when it is loaded; every other module loses the
// worker's exports and what only they use (server-exports.ts); and a built browser chunk with
// bytes of a server-only module fails the build (test/node/server-only.test.ts proves it on the
// real build output).
import type { Plugin } from "vite";
import { isClient, rel, type Verge } from "./context.ts";
import { withoutServerExports } from "./server-exports.ts";
import { withoutEndpointImports } from "./endpoint-lines.ts";

/**
 * The one rule for what may never reach a browser chunk: the server runtime's folder
 * (src/server/), any `*.server.ts(x)` module (a product's database code, secrets), and the worker entry.
 */
const SERVER_ONLY = /(^|\/)src\/server\/|(^|\/)src\/worker\.tsx?$|\.server\.tsx?$/;

/** Whether a module path (root-relative, as the build names it, or absolute) is server-only. */
export function isServerOnly(path: string): boolean {
  return SERVER_ONLY.test(path.replace(/^[\w-]+:/, ""));
}

const ours = (id: string) => !id.includes("/node_modules/") && !id.startsWith("\0");

export function serverOnly(verge: Verge): Plugin {
  return {
    name: "verge:server-only",
    // Before any other transform: what only the worker's exports use goes before anything reads it.
    enforce: "pre",
    sharedDuringBuild: true,
    load(id) {
      // Refused before the file is read: an error raised on its code (a transform) would carry the
      // code, and the dev server's error page shows it all.
      if (isClient(this) && ours(id) && isServerOnly(rel(verge, id))) {
        this.error(
          `${rel(verge, id)} is server-only (src/server/, *.server.ts, the worker entry) and may not reach the browser`,
        );
      }
      return undefined;
    },
    transform: {
      order: "pre",
      handler(code, id) {
        if (!isClient(this) || !ours(id)) return undefined;
        const file = rel(verge, id);
        if (!/\.[cm]?[jt]sx?$/.test(file)) return undefined;
        const stripped = withoutServerExports(file, code);
        const lines = withoutEndpointImports(file, stripped ?? code);
        const out = lines ?? stripped;
        return out === null ? undefined : { code: out, map: null };
      },
    },
    generateBundle: {
      // After Vite's own (which drops the chunks of CSS alone): the chunks as they are written.
      order: "post",
      handler(_, bundle) {
        if (!isClient(this)) return;
        for (const output of Object.values(bundle)) {
          if (output.type !== "chunk") continue;
          const leaks = Object.entries(output.modules)
            .filter(([id, module]) => module.renderedLength > 0 && isServerOnly(rel(verge, id)))
            .map(([id]) => rel(verge, id));
          if (leaks.length > 0) {
            this.error(`server-only code reached the browser chunk ${output.fileName}: ${leaks.join(", ")}`);
          }
        }
      },
    },
  };
}
