// Readable stacks with the production bundles under wrangler dev: Sentry events name the debug ID
// of each bundle their frames are in, and no source map is served.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { clientChunks, readBuild, root } from "../node/dist";
import { eventOf } from "../support/envelope";
import { ingestControl, ingestEnvelopes, openPage, useBrowser } from "./support";

const browser = useBrowser();
beforeEach(async () => {
  await ingestControl("reset");
});

/** The debug ID in a kept map of this build (dist/sourcemaps/<build>/<name>.map). */
async function keptDebugId(name: string): Promise<string> {
  const { manifest } = readBuild();
  const map = JSON.parse(
    await readFile(path.join(root, "dist/sourcemaps", manifest.build, `${name}.map`), "utf8"),
  );
  return map.debug_id;
}

async function loaderFailure() {
  const { page, context } = await openPage(browser());
  const response = await page.goto("/errors/loader");
  expect(response?.status()).toBe(500);
  const digest = (await page.getByTestId("digest").textContent())!;
  await context.close();
  return digest;
}

describe("readable stacks", () => {
  it("a loader's error reaches Sentry with the worker bundle's debug ID in debug_meta", async () => {
    const digest = await loaderFailure();
    await expect
      .poll(async () => (await ingestEnvelopes()).map((e) => eventOf(e)?.tags?.digest), { timeout: 10_000 })
      .toContain(digest);
    const event = (await ingestEnvelopes()).map(eventOf).find((e) => e?.tags?.digest === digest)!;
    const frames: { filename: string }[] = event.exception.values[0].stacktrace.frames;
    const workerFile = frames.at(-1)!.filename;
    expect(workerFile).toMatch(/worker\.js$/);
    expect(event.debug_meta.images).toEqual([
      { type: "sourcemap", code_file: workerFile, debug_id: await keptDebugId("worker.js") },
    ]);
  });

  it("serves no source map: /assets/<chunk>.js.map is a 404", async () => {
    for (const name of clientChunks().keys()) {
      const response = await fetch(`${inject("baseURL")}/assets/${name}.map`);
      expect(response.status, name).toBe(404);
      expect(await response.text()).not.toContain('"mappings"');
    }
  });
});
