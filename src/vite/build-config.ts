// verge:config: how Vite builds a verge app: the browser's entry and shared chunk, the worker as
// one minified file, source maps for both (kept out of what is served), the client built first,
// and production builds only.
import path from "node:path";
import type { Plugin } from "vite";
import type { Verge } from "./context.ts";

export function buildConfig(verge: Verge): Plugin {
  return {
    name: "verge:config",
    enforce: "pre",
    sharedDuringBuild: true,
    config(user, env) {
      const production = env.command === "build";
      const entryPath = path.resolve(user.root ?? process.cwd(), verge.entry);
      return {
        environments: {
          client: {
            build: {
              rollupOptions: {
                input: verge.entry,
                // What every page loads, in one chunk beside the entry rather than one per set of
                // importers: each file costs a request, its imports and its gzip framing. Not the
                // entry's own module: it awaits the page's chunk, which imports the shell.
                output: {
                  codeSplitting: {
                    groups: [{ name: "shell", tags: ["$initial"], test: (id: string) => id !== entryPath }],
                  },
                },
              },
              // The maps go to the build's maps folder (verge:debug-ids), never beside the chunks.
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
      verge.config = resolved;
      // What `vite build` writes is what a plain `wrangler deploy` ships: never development React,
      // served source maps or dev hooks.
      if (resolved.command === "build" && !resolved.isProduction) {
        throw new Error(
          `verge builds for production only (this build's mode is "${resolved.mode}", NODE_ENV ` +
            `${process.env.NODE_ENV ?? "unset"}): run \`npm run build\`; \`npm run dev\` needs no build.`,
        );
      }
    },
  };
}
