// Sentry debug IDs in the built bundles (scripts/debug-ids.mjs): every client chunk and the worker
// wrangler deploys carry one, equal to the debug_id of their map in the build's maps folder.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildClient, PRODUCT } from "../../scripts/build-client.mjs";
import { buildWorker } from "../../scripts/build-worker.mjs";
import { readDebugId } from "../../scripts/debug-ids.mjs";
import { clientChunks, readBuild, root } from "./dist";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const temporary: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), `verge-${name}-`));
  temporary.push(dir);
  return dir;
};
afterAll(() => temporary.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const mapsDir = () => path.join(root, "dist/sourcemaps", readBuild().manifest.build);
const readMap = (file: string) => JSON.parse(readFileSync(file, "utf8"));

/** What Sentry's SDK reads: the chunk registers its ID under a stack captured inside it. */
const registers = (code: string, id: string) =>
  code.includes(`(self._sentryDebugIds??={})[Error().stack]="${id}"`);

describe("debug IDs of the production client build", () => {
  it("every chunk carries a debug ID, registers it, and its kept map has the same debug_id", () => {
    const chunks = clientChunks();
    expect(chunks.size).toBeGreaterThan(3);
    for (const [name, code] of chunks) {
      const id = readDebugId(code);
      expect(id, name).toMatch(UUID);
      expect(registers(code, id!), name).toBe(true);
      const map = readMap(path.join(mapsDir(), "assets", `${name}.map`));
      expect(map.debug_id, name).toBe(id);
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
    expect(sources.filter((source) => source.startsWith("../"))).toEqual([]);
  });
});

describe("debug IDs of a development client build", () => {
  it("serves each chunk's map beside it (for dev tools), with the chunk's debug ID", async () => {
    const out = tempDir("dev-client");
    await buildClient({ ...PRODUCT, out: path.relative(root, out), dev: true, log: () => {} });
    const assets = path.join(out, "client/assets");
    const chunks = readdirSync(assets).filter((name) => name.endsWith(".js"));
    expect(chunks.length).toBeGreaterThan(3);
    for (const name of chunks) {
      const code = readFileSync(path.join(assets, name), "utf8");
      expect(code.trimEnd().split("\n").at(-1), name).toBe(`//# sourceMappingURL=${name}.map`);
      expect(readDebugId(code), name).toMatch(UUID);
      expect(readMap(path.join(assets, `${name}.map`)).debug_id, name).toBe(readDebugId(code));
    }
  });
});

describe("debug IDs of the worker", () => {
  it("are the same from one build to the next, wherever the bundle is written", async () => {
    const [first, second] = [tempDir("worker-a"), tempDir("worker-b")];
    const ids = [];
    for (const out of [first, second]) {
      const file = await buildWorker({ out: path.relative(root, out) });
      ids.push(readDebugId(readFileSync(file, "utf8")));
    }
    expect(ids[0]).toMatch(UUID);
    expect(ids[1]).toBe(ids[0]);
  });

  it("the bundle wrangler deploys (--dry-run) carries the debug ID of the worker's kept map", () => {
    const outdir = tempDir("deploy");
    const result = spawnSync(
      path.join(root, "node_modules/.bin/wrangler"),
      ["deploy", "--dry-run", "--outdir", outdir],
      { cwd: root, encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
    expect(result.status, result.stderr).toBe(0);
    const deployed = readFileSync(path.join(outdir, "worker.js"), "utf8");
    const id = readDebugId(deployed);
    expect(id).toMatch(UUID);
    expect(registers(deployed, id!)).toBe(true);
    expect(readMap(path.join(mapsDir(), "worker.js.map")).debug_id).toBe(id);
    expect(readFileSync(path.join(mapsDir(), "worker.js"), "utf8")).toBe(deployed);
    expect(existsSync(path.join(outdir, "worker.js.map")), "wrangler uploads no map").toBe(false);
  });
});
