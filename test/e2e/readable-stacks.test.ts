// Readable stacks with the production bundles under `npm run preview`: Sentry events name the debug ID
// of each bundle their frames are in, no source map is served, and `npm run logs` maps a stack
// the worker logged back to the sources.
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { readDebugId } from "../../scripts/debug-ids.mjs";
import { clientChunks, readBuild, root } from "../node/dist";
import { eventOf } from "../support/envelope";
import { ingestControl, ingestEnvelopes, logLines, openPage, throwClientError, useBrowser } from "./support";

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

/** The line and column (1-based) where `text` starts in a source file. */
async function positionOf(file: string, text: string): Promise<string> {
  const lines = (await readFile(path.join(root, file), "utf8")).split("\n");
  const line = lines.findIndex((l) => l.includes(text));
  return `${line + 1}:${lines[line]!.indexOf(text) + 1}`;
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
      .poll(async () => (await ingestEnvelopes()).map((e) => eventOf(e)?.tags?.digest))
      .toContain(digest);
    const event = (await ingestEnvelopes()).map(eventOf).find((e) => e?.tags?.digest === digest)!;
    const frames: { filename: string }[] = event.exception.values[0].stacktrace.frames;
    const workerFile = frames.at(-1)!.filename;
    expect(workerFile).toMatch(/(^|\/)index\.js$/);
    expect(event.debug_meta.images).toEqual([
      { type: "sourcemap", code_file: workerFile, debug_id: await keptDebugId("index.js") },
    ]);
  });

  it("a client render error's envelope names the debug ID of the chunk that threw", async () => {
    const { page, context } = await openPage(browser());
    await page.goto("/errors");
    await throwClientError(page);
    await expect.poll(async () => (await ingestEnvelopes()).length).toBe(1);
    const event = eventOf((await ingestEnvelopes())[0]!)!;
    await context.close();
    const thrower = event.exception.values[0].stacktrace.frames.at(-1).filename as string;
    const chunk = new URL(thrower).pathname.slice(1); // "assets/chunk-X.js"
    const images: { type: string; code_file: string; debug_id: string }[] = event.debug_meta.images;
    expect(images).toContainEqual({
      type: "sourcemap",
      code_file: thrower,
      debug_id: await keptDebugId(chunk),
    });
    // Every file in the frames that is a chunk is named, each with its own debug ID.
    for (const image of images) {
      const name = new URL(image.code_file).pathname.slice(1);
      expect(image.debug_id).toBe(readDebugId(clientChunks().get(path.basename(name))!));
    }
  });

  it("serves no source map: /assets/<chunk>.js.map is a 404", async () => {
    for (const name of clientChunks().keys()) {
      const response = await fetch(`${inject("baseURL")}/assets/${name}.map`);
      expect(response.status, name).toBe(404);
      expect(await response.text()).not.toContain('"mappings"');
    }
  });

  it("npm run logs prints the logged stack of a loader error at its line in src/", async () => {
    const digest = await loaderFailure();
    await expect.poll(async () => (await logLines()).map((line) => line.digest)).toContain(digest);
    const logs = spawnSync(process.execPath, ["scripts/logs.mjs", "--digest", digest], {
      cwd: root,
      input: await readFile(inject("logFile"), "utf8"),
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(logs.stderr).toBe("");
    // The frame is the `new Error(…)` expression: Rolldown's map places it at `new` or at `Error`.
    const at = [
      await positionOf("src/app/pages/errors-loader.tsx", "new Error("),
      await positionOf("src/app/pages/errors-loader.tsx", "Error("),
    ];
    expect(
      at.some((where) => logs.stdout.includes(`(src/app/pages/errors-loader.tsx:${where})`)),
      logs.stdout,
    ).toBe(true);
    expect(logs.stdout).not.toMatch(/index\.js:\d+:\d+/);
  });
});
