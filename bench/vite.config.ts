// The benchmark's Workers, built as `vite build` builds the app's (the same plugins, production,
// minified, one file each), into dist/bench/: the app with the benchmark's pages (app-worker.tsx,
// the app's wrangler.toml), the floor and the floor with a log line (workers/wrangler.toml), and
// the in-isolate loop (loop-worker.tsx, the app's wrangler.toml). One build, so each embeds the
// manifest of the client built beside them (virtual:verge/manifest). Its root is bench/, so the
// deploy redirect it writes (.wrangler/deploy/) is the benchmark's, never the app's.
// bench/scripts/build.mjs runs it; BENCH_MINIFY=0 keeps the Workers' names readable (profiles).
import path from "node:path";
import { cloudflare } from "@cloudflare/vite-plugin";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { unstable_readConfig } from "wrangler";
// By path: bench/ is a package of its own, outside the reach of the `verge/vite` self-reference.
import { verge } from "../src/vite/index.ts";

const here = import.meta.dirname;
const app = path.join(here, "../wrangler.toml");
const floor = path.join(here, "workers/wrangler.toml");
const worker = (file: string) => path.join(here, "workers", file);

/**
 * A second Worker with the settings of `configPath` and another entry: the plugin takes each
 * config file once, so this one is given inline (the runtime settings a bundle depends on; the
 * benchmark runs it with the bindings of `configPath` itself).
 */
function like(configPath: string, name: string, main: string) {
  const { compatibility_date, compatibility_flags } = unstable_readConfig({ config: configPath });
  return {
    config: { name, topLevelName: name, main: worker(main), compatibility_date, compatibility_flags },
  };
}

/** Workers left unminified, for V8 profiles that name functions (minifying hardly changes their cost). */
function readable(): Plugin {
  return {
    name: "bench-readable",
    configEnvironment: (name) => (name === "client" ? undefined : { build: { minify: false } }),
  };
}

/**
 * The Workers one after another, after the client (the Cloudflare plugin then skips them): built
 * at once, each writes its `index.js` into the build's maps folder (verge/vite) at the same time.
 */
function oneAtATime(): Plugin {
  return {
    name: "bench-one-at-a-time",
    // "post", as the Cloudflare plugin's, and before it in the list: after verge's client build.
    buildApp: {
      order: "post",
      async handler(builder) {
        for (const [name, environment] of Object.entries(builder.environments))
          if (name !== "client" && !environment.isBuilt) await builder.build(environment);
      },
    },
  };
}

/**
 * The floors as a team on Workers builds them: verge's plugins give them the client's manifest and
 * React's file, but their code compiles lazily, as V8 does by default (verge:compile-at-start is
 * verge's own, so the app's Workers keep it).
 */
function lazyFloors(plugins: Plugin[]): Plugin[] {
  return plugins.map((plugin) =>
    plugin.name === "verge:compile-at-start"
      ? { ...plugin, applyToEnvironment: (environment) => !environment.name.startsWith("floor") }
      : plugin,
  );
}

export default defineConfig({
  root: here,
  build: { outDir: "../dist/bench", emptyOutDir: true },
  plugins: [
    lazyFloors(verge({ entry: "../client/entry.tsx", routes: "../src/app/routes.ts" })),
    react(),
    oneAtATime(),
    cloudflare({
      configPath: app,
      config: { main: worker("app-worker.tsx") },
      viteEnvironment: { name: "app" },
      auxiliaryWorkers: [
        { configPath: floor, viteEnvironment: { name: "floor" } },
        {
          ...like(floor, "verge-floor-logged", "floor-logged-worker.tsx"),
          viteEnvironment: { name: "floor_logged" },
        },
        { ...like(app, "verge-loop", "loop-worker.tsx"), viteEnvironment: { name: "loop" } },
      ],
      // Nothing of a local session: the benchmark runs the bundles on Miniflare itself.
      persistState: false,
    }),
    ...(process.env.BENCH_MINIFY === "0" ? [readable()] : []),
  ],
});
