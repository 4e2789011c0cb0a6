// `npm run dev` streams pages to a browser as production does: /slow's shell paints long before
// its slow section arrives. The command runs as a developer runs it, in a copy of the project
// (its own dist/ and local state; node_modules linked), so this file's build never touches ours.
import { spawn, type ChildProcess } from "node:child_process";
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/local-server.mjs";
import { openPage, useBrowser } from "./support";

const root = path.resolve(import.meta.dirname, "../..");
/** What `npm run dev` reads: its scripts, the sources, the migrations and the configuration. */
const PROJECT = ["package.json", "wrangler.toml", "tsconfig.json", "scripts", "src", "client", "migrations"];

const browser = useBrowser();
let copy = "";
let dev: ChildProcess | undefined;
let base = "";
let output = "";

async function waitUntilReady(url: string, deadline = Date.now() + 110_000) {
  while (Date.now() < deadline) {
    if (dev?.exitCode !== null) throw new Error(`npm run dev exited early:\n${output}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`npm run dev did not answer at ${url}:\n${output}`);
}

beforeAll(async () => {
  copy = await mkdtemp(path.join(os.tmpdir(), "verge-dev-"));
  for (const entry of PROJECT) await cp(path.join(root, entry), path.join(copy, entry), { recursive: true });
  await symlink(path.join(root, "node_modules"), path.join(copy, "node_modules"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const args = ["--ip", "127.0.0.1", "--port", String(port), "--show-interactive-dev-session=false"];
  // Its own process group, so that stopping it stops wrangler and the client watcher too.
  dev = spawn("npm", ["run", "dev", "--", ...args], {
    cwd: copy,
    detached: true,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  dev.stdout!.on("data", (chunk) => (output += chunk));
  dev.stderr!.on("data", (chunk) => (output += chunk));
  await waitUntilReady(`${base}/`);
  // The first request of a route compiles it, in development: measure a warm server.
  await (await fetch(`${base}/slow`)).text();
}, 120_000);

afterAll(async () => {
  if (dev?.pid !== undefined && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev!.once("exit", resolve));
    process.kill(-dev.pid, "SIGTERM");
    await exited;
  }
  if (copy) await rm(copy, { recursive: true, force: true });
});

describe("npm run dev", () => {
  it("streams /slow to a browser that accepts gzip: the shell paints well before the slow section", async () => {
    const { page, context } = await openPage(browser(), { baseURL: base });
    // When the slow section's value first appears in the document, on the page's own clock.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector("[data-testid=slow-value]")) return;
        Object.assign(window, { __slowAt: performance.now() });
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    const sent = page.waitForRequest((request) => request.url() === `${base}/slow`);
    await page.goto("/slow");
    expect((await (await sent).allHeaders())["accept-encoding"]).toMatch(/\bgzip\b/);
    await page.getByTestId("slow-value").waitFor();
    const { response, paint, slowAt } = await page.evaluate(() => ({
      response: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).responseStart,
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Infinity,
      slowAt: (window as { __slowAt?: number }).__slowAt ?? 0,
    }));
    // The slow value takes about a second: the shell must be on screen for most of it.
    const timeline = `first byte at ${response} ms, first paint at ${paint} ms, slow section at ${slowAt} ms`;
    console.log(`npm run dev, /slow in Chromium: ${timeline}`);
    expect(slowAt - paint, timeline).toBeGreaterThan(500);
    await context.close();
  });
});
