// Sentry debug IDs in the built bundles (scripts/debug-ids.mjs, appended by verge/vite): every
// client chunk and the worker wrangler deploys carry one, equal to the debug_id of their map in the
// build's maps folder (dist/sourcemaps/<build>/), and a rebuild of the same sources gives the same.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readDebugId } from "../../scripts/debug-ids.mjs";
import { clientChunks, mapsDir, readBuild, root, workerFile } from "./dist";
import { productionBuild, tempApp } from "./vite-app";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const temporary: string[] = [];
afterAll(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const readMap = (file: string) => JSON.parse(readFileSync(file, "utf8"));

/** What Sentry's SDK reads: the chunk registers its ID under a stack captured inside it. */
const registers = (code: string, id: string) =>
  code.includes(`(self._sentryDebugIds??={})[Error().stack]="${id}"`);

/** The lines a bundle ends with: the registration, the ID's comment, then any map link, last. */
const tail = (code: string) => code.trimEnd().split("\n").slice(-3);

describe("debug IDs of the production client build", () => {
  it("every chunk carries a debug ID, registers it, and its kept map has the same debug_id", () => {
    const chunks = clientChunks();
    expect(chunks.size).toBeGreaterThan(3);
    for (const [name, code] of chunks) {
      const id = readDebugId(code);
      expect(id, name).toMatch(UUID);
      expect(registers(code, id!), name).toBe(true);
      expect(code.trimEnd().split("\n").at(-1), name).toBe(`//# debugId=${id}`);
      const map = readMap(path.join(mapsDir(), "assets", `${name}.map`));
      expect(map.debug_id, name).toBe(id);
      expect(map.debugId, name).toBe(id);
      expect(readFileSync(path.join(mapsDir(), "assets", name), "utf8"), name).toBe(code);
    }
    expect(new Set([...chunks.values()].map(readDebugId)).size, "one ID per chunk").toBe(chunks.size);
  });

  it("puts no source map in what is served (dist/client), nor a link to one", () => {
    const served = readdirSync(path.join(root, "dist/client"), { recursive: true }).map(String);
    expect(served.filter((file) => file.endsWith(".map"))).toEqual([]);
    for (const [name, code] of clientChunks()) expect(code, name).not.toContain("sourceMappingURL");
  });

  it("maps the kept chunks' sources relative to the project root", () => {
    const sources = readdirSync(path.join(mapsDir(), "assets"))
      .filter((name) => name.endsWith(".map"))
      .flatMap((name) => readMap(path.join(mapsDir(), "assets", name)).sources as string[]);
    expect(sources).toContain("client/hydrate.tsx");
    expect(sources).toContain("src/app/pages/guestbook.tsx");
    expect(sources.filter((source) => source.startsWith("../") || path.isAbsolute(source))).toEqual([]);
  });

  it("are the same from one build to the next, wherever the build is written", async () => {
    const app = tempApp();
    temporary.push(app.dir);
    const out = path.join(app.dir, "dist");
    await productionBuild({ outDir: path.join(out, "client") });
    const { build } = readBuild().manifest;
    expect(readBuild(out).manifest.build).toBe(build);
    const rebuilt = clientChunks(path.join(out, "client/assets"));
    const built = clientChunks();
    expect([...rebuilt.keys()].sort()).toEqual([...built.keys()].sort());
    for (const [name, code] of rebuilt) {
      expect(readDebugId(code), name).toBe(readDebugId(built.get(name)!));
      const map = readMap(path.join(out, "sourcemaps", build, "assets", `${name}.map`));
      const kept = readMap(path.join(mapsDir(), "assets", `${name}.map`));
      expect({ id: map.debug_id, sources: map.sources }, name).toEqual({
        id: kept.debug_id,
        sources: kept.sources,
      });
    }
  });
});

describe("debug IDs of the worker", () => {
  it("dist/verge/index.js carries one, registers it, before its map link, as its kept map does", () => {
    const code = readFileSync(workerFile, "utf8");
    const id = readDebugId(code);
    expect(id).toMatch(UUID);
    expect(registers(code, id!)).toBe(true);
    expect(tail(code).slice(1)).toEqual([`//# debugId=${id}`, "//# sourceMappingURL=index.js.map"]);
    expect(readMap(`${workerFile}.map`).debug_id).toBe(id);
    expect(readMap(path.join(mapsDir(), "index.js.map")).debug_id).toBe(id);
    expect(readFileSync(path.join(mapsDir(), "index.js"), "utf8")).toBe(code);
  });

  it("the bundle wrangler deploys (--dry-run) carries the debug ID of the worker's kept map", () => {
    const outdir = mkdtempSync(path.join(os.tmpdir(), "verge-deploy-"));
    temporary.push(outdir);
    const result = spawnSync(
      path.join(root, "node_modules/.bin/wrangler"),
      ["deploy", "--dry-run", "--outdir", outdir],
      { cwd: root, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    expect(result.status, result.stderr).toBe(0);
    const deployed = readFileSync(path.join(outdir, "index.js"), "utf8");
    const id = readDebugId(deployed);
    expect(id).toMatch(UUID);
    expect(registers(deployed, id!)).toBe(true);
    expect(readMap(path.join(mapsDir(), "index.js.map")).debug_id).toBe(id);
    expect(readFileSync(path.join(mapsDir(), "index.js"), "utf8")).toBe(deployed);
    expect(existsSync(path.join(outdir, "index.js.map")), "wrangler writes no map beside it").toBe(false);
  });
});
