// verge:debug-ids: a Sentry debug ID in every built chunk and its map (scripts/debug-ids.mjs), and
// each build's bundles and maps kept in the build's maps folder (scripts/build-maps.mjs), never
// beside what the client serves.
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Plugin } from "vite";
import { keepBuildMaps } from "../../scripts/build-maps.mjs";
import { debugIdSnippet, readDebugId, withDebugId } from "../../scripts/debug-ids.mjs";
import { isClient, type Verge } from "./context.ts";

export function debugIds(verge: Verge): Plugin {
  return {
    name: "verge:debug-ids",
    enforce: "pre",
    sharedDuringBuild: true,
    // Last: Vite's own generateBundle rewrites a chunk that preloads others (`__vite__mapDeps`) and
    // replaces its map, which would drop the debug ID and the root-relative sources from it.
    generateBundle: {
      order: "post",
      handler(options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type !== "chunk") continue;
          // A Sentry debug ID from the chunk's content (a rebuild of the same sources gives the same
          // one), appended once the chunk is minified, so no mapping moves.
          output.code = withSnippet(output.code, debugIdSnippet(output.code));
        }
        for (const output of Object.values(bundle)) {
          if (output.type !== "asset" || !output.fileName.endsWith(".js.map")) continue;
          const map = JSON.parse(String(output.source));
          const chunk = bundle[output.fileName.slice(0, -4)];
          if (chunk?.type !== "chunk") continue;
          output.source = withDebugId(
            map,
            chunk.code,
            path.join(options.dir!, path.dirname(output.fileName)),
          );
        }
      },
    },
    async writeBundle(options, bundle) {
      if (!verge.built) return;
      const outDir = options.dir!;
      const files = [];
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        const map = bundle[`${output.fileName}.map`];
        files.push({
          name: output.fileName,
          code: output.code,
          map: map?.type === "asset" ? String(map.source) : emptyMap(output.fileName, output.code),
        });
      }
      // The maps folder of the client build both bundles belong to (`npm run logs`, Sentry uploads).
      await keepBuildMaps({ appDir: path.dirname(outDir), build: verge.built.build, dev: false, files });
      // The production client serves no map.
      if (isClient(this)) {
        await Promise.all(files.map((file) => rm(path.join(outDir, `${file.name}.map`), { force: true })));
      }
    },
  };
}

/**
 * The map of a chunk with no code of its own (the entry, when the shell holds what it imports),
 * which Rolldown gives none: it still pairs the chunk's debug ID for Sentry.
 */
function emptyMap(fileName: string, code: string): string {
  const id = readDebugId(code);
  return JSON.stringify({
    version: 3,
    file: path.basename(fileName),
    sources: [],
    names: [],
    mappings: "",
    debug_id: id,
    debugId: id,
  });
}

/** `code` with `snippet` appended, before its `//# sourceMappingURL=` line if any (which stays last). */
function withSnippet(code: string, snippet: string): string {
  const mapUrl = /\n\/\/# sourceMappingURL=[^\n]*\n?$/.exec(code);
  const body = mapUrl ? code.slice(0, mapUrl.index) : code.replace(/\n$/, "");
  return `${body}\n${snippet}${mapUrl ? `${mapUrl[0].trim()}\n` : ""}`;
}
