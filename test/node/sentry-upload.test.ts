// The Sentry steps of `npm run deploy` (scripts/sentry-maps.mjs) on the build's maps folder, with
// the real sentry-cli against a stand-in for Sentry's API: what it reads and what it uploads.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDebugIds, uploadSourceMaps } from "../../scripts/sentry-maps.mjs";
import { startFakeSentryApi, type FakeSentryApi } from "../support/fake-sentry-api";
import { mapsDir, readBuild } from "./dist";

const work = mkdtempSync(path.join(os.tmpdir(), "verge-sentry-"));
/** A copy of this build's maps folder: other tests may rebuild the original meanwhile. */
const maps = path.join(work, "maps");
const { build } = readBuild().manifest;
let api: FakeSentryApi;

beforeAll(async () => {
  // `vite build` keeps the client's chunks and the worker's index.js there, each with its map.
  cpSync(mapsDir(build), maps, { recursive: true });
  api = await startFakeSentryApi();
});
afterAll(async () => {
  await api.close();
  rmSync(work, { recursive: true, force: true });
});

describe("the Sentry steps of npm run deploy", () => {
  it("finds every bundle's debug ID in its map and as sentry-cli reads it", async () => {
    const ids = await checkDebugIds(maps);
    const names = [...ids.keys()].map((file) => path.relative(maps, file)).sort();
    expect(names).toContain("index.js");
    expect(names.filter((name) => name.startsWith("assets/")).length).toBeGreaterThan(3);
  });

  it("refuses a folder where a bundle has lost its debug ID", async () => {
    const broken = path.join(work, "broken");
    cpSync(maps, broken, { recursive: true });
    const file = path.join(broken, "index.js");
    writeFileSync(file, readFileSync(file, "utf8").replace(/\/\/# debugId=.*\n/, ""));
    await expect(checkDebugIds(broken)).rejects.toThrow("index.js carries no debug ID");
  });

  it("uploads every bundle and its map, paired by debug ID, as release = build id", async () => {
    const ids = await checkDebugIds(maps);
    const env = {
      ...process.env,
      SENTRY_URL: api.url,
      SENTRY_AUTH_TOKEN: "sntrys_fake",
      SENTRY_ORG: "verge-org",
      SENTRY_PROJECT: "verge",
    };
    await uploadSourceMaps(maps, build, { env, quiet: true });
    expect(api.assembled).toHaveLength(1);
    const { request, files } = api.assembled[0]!;
    expect(request).toMatchObject({ projects: ["verge"], version: build });
    const manifest = JSON.parse(files.get("manifest.json")!.toString("utf8"));
    const uploaded = Object.values(manifest.files) as {
      url: string;
      type: string;
      headers: Record<string, string>;
    }[];
    for (const [file, id] of ids) {
      const url = `~/${path.relative(maps, file)}`;
      expect(uploaded, url).toContainEqual(
        expect.objectContaining({
          url,
          type: "minified_source",
          headers: expect.objectContaining({ "debug-id": id }),
        }),
      );
      expect(uploaded, `${url}.map`).toContainEqual(
        expect.objectContaining({ url: `${url}.map`, type: "source_map", headers: { "debug-id": id } }),
      );
    }
  });
});
