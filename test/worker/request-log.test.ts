import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from "vitest";
import { env } from "cloudflare:workers";
import { request } from "./html";
import { fixtureRequest, manifest } from "./apps";
import { recordingApp } from "./recording-app";
import { uniqueName } from "./action-helpers";
import { visitor } from "verge/test";

let spy: MockInstance<typeof console.log>;
beforeEach(() => {
  spy = vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => {
  spy.mockRestore();
});

/** The JSON log lines written so far. */
function lines(): Record<string, unknown>[] {
  return spy.mock.calls
    .map(([first]) => (typeof first === "string" && first.startsWith("{") ? JSON.parse(first) : null))
    .filter((line) => line !== null);
}

/** Sends a request, reads the whole body, and waits for its one log line. */
async function logged(path: string, init?: RequestInit, send = request) {
  const before = lines().length;
  const response = await send(path, init);
  const body = await response.text();
  await vi.waitFor(() => expect(lines().length).toBeGreaterThan(before));
  // Give a second line, if there were one, every chance to appear.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const written = lines().slice(before);
  expect(written, "exactly one log line per request").toHaveLength(1);
  return { response, body, line: written[0]! };
}

describe("the request log", () => {
  it("writes one JSON line with every field for a page", async () => {
    // The file's first visit to /, a page that opts into the edge cache: a miss.
    const { line } = await logged("/");
    expect(Object.keys(line).sort()).toEqual(
      ["cache", "kind", "level", "method", "ms", "path", "ray", "route", "status", "timings", "ts"].sort(),
    );
    expect(line).toMatchObject({
      level: "info",
      kind: "html",
      method: "GET",
      path: "/",
      route: "/",
      status: 200,
      cache: "miss",
    });
    expect(new Date(line.ts as string).toISOString()).toBe(line.ts);
    expect(Math.abs(Date.now() - Date.parse(line.ts as string))).toBeLessThan(60_000);
    expect(line.ms).toBeTypeOf("number");
    expect(line.ms as number).toBeGreaterThanOrEqual(0);
    expect(line.ray).toMatch(/^[0-9a-f]{16}$/);
  });

  it("takes ray from the cf-ray header when there is one", async () => {
    const { line } = await logged("/", { headers: { "cf-ray": "8f1e2d3c4b5a6978-AMS" } });
    expect(line.ray).toBe("8f1e2d3c4b5a6978-AMS");
  });

  it("generates a different ray for each request without cf-ray", async () => {
    const first = (await logged("/")).line.ray;
    const second = (await logged("/")).line.ray;
    expect(first).not.toBe(second);
  });

  it("writes the line after a streamed page has finished, with the whole time in ms", async () => {
    const { line, body } = await logged("/slow");
    expect(body).toContain("Arrived after");
    expect(line).toMatchObject({ level: "info", kind: "html", route: "/slow", status: 200 });
    expect(line.ms as number).toBeGreaterThanOrEqual(900);
  });

  it("writes each phase in timings as [start, ms], and D1's statement count", async () => {
    // The file's first visit to the guestbook: its shell is prerendered (a miss), then resumed.
    const { line } = await logged("/guestbook");
    const timings = line.timings as Record<string, [number, number]>;
    // The session middleware is a phase of its own; without a session cookie it makes no D1 query.
    expect(Object.keys(timings)).toEqual([
      "match",
      "middleware:session",
      "visitor",
      "cache",
      "loader",
      "d1",
      "shell",
      "resume",
    ]);
    for (const [phase, pair] of Object.entries(timings)) {
      expect(pair, phase).toHaveLength(2);
      for (const ms of pair) expect(ms, phase).toBeGreaterThanOrEqual(0);
    }
    // One batch of two statements: the page of entries and their count.
    expect(line.d1_queries).toBe(2);
  });

  it("counts one D1 query for a signed-in visitor's guestbook from its shell: session, name and own entries", async () => {
    const account = await visitor().signUp(uniqueName("Log reader"));
    await logged("/guestbook");
    const { line, body } = await logged("/guestbook", { headers: { Cookie: account.session } });
    expect(line).toMatchObject({ cache: "shell", status: 200, d1_queries: 1 });
    expect(body).toContain("Log reader");
  });

  it("times each deferred value of a streamed page until it lands, under its key", async () => {
    // The tests' app's /slow: the product's page without its edge cache, rendered every time.
    const { line } = await logged("/slow", undefined, fixtureRequest);
    expect(Object.keys(line.timings as object)).toContain("deferred:slow");
    expect(line).not.toHaveProperty("d1_queries");
  });

  it("logs the matched pattern as route, the path as requested, and no query string", async () => {
    const { line } = await logged("/echo?text=secret-ish", undefined, fixtureRequest);
    expect(line).toMatchObject({ path: "/echo", route: "/echo", status: 200 });
    expect(JSON.stringify(line)).not.toContain("secret-ish");
  });

  it("marks a 404 as a warning with no route", async () => {
    const { line } = await logged("/nope");
    expect(line).toMatchObject({ level: "warn", kind: "html", path: "/nope", route: null, status: 404 });
  });

  it("logs page-data requests as kind data", async () => {
    const { line, response } = await logged("/?_data=1", { headers: { "X-Page-Data": "1" } });
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(line).toMatchObject({ kind: "data", route: "/", status: 200, path: "/" });
  });

  it("adds digest, message and stack for a server error; the digest is the one the visitor sees", async () => {
    const { line, body } = await logged("/errors/loader");
    expect(line).toMatchObject({ level: "error", status: 500, route: "/errors/loader" });
    expect(line.digest).toMatch(/^[0-9a-z]{8,16}$/);
    expect(body).toContain(`Digest: <code data-testid="digest">${line.digest}</code>`);
    expect(line.message).toBe("Loader failed on purpose (/errors/loader)");
    expect(line.stack).toContain("errors-loader");
  });

  it("names the build on a line with an error, so its stack can be mapped to the sources", async () => {
    const { line } = await logged("/errors/loader");
    expect(line.build).toBe(manifest.build);
    const { line: fine } = await logged("/");
    expect(fine).not.toHaveProperty("build");
  });

  it("logs refused methods with their method and status", async () => {
    const { line } = await logged("/", { method: "PATCH" });
    expect(line).toMatchObject({ level: "warn", method: "PATCH", path: "/", status: 405 });
  });

  it("keeps the line short for a very long URL", async () => {
    const { line, response } = await logged(`/${"a".repeat(20_000)}`);
    expect(response.status).toBe(414);
    expect(JSON.stringify(line).length).toBeLessThan(2_000);
  });

  it("writes the line at once, with no waitUntil, when nothing is left to stream", async () => {
    // The runtime's side of it: a waitUntil per request measurably costs CPU (BENCHMARKS.md).
    const visit = async (path: string) => {
      const { app, lines } = recordingApp();
      const waited: Promise<unknown>[] = [];
      const ctx = {
        waitUntil: (p: Promise<unknown>) => waited.push(p),
        passThroughOnException() {},
        props: {},
      };
      // A deploy of its own (its version keys the edge cache): a cached page renders here.
      const version = { CF_VERSION_METADATA: { id: crypto.randomUUID(), tag: "", timestamp: "" } };
      const response = await app.fetch(
        new Request(`http://localhost${path}`),
        { ...env, ...version },
        ctx as unknown as ExecutionContext,
      );
      const linesAtResponse = lines().length;
      await response.text();
      await Promise.all(waited);
      return { waits: waited.length, linesAtResponse, linesAtEnd: lines().length };
    };
    // Pages the edge cache does not keep (or a query string it has not seen) render every time.
    expect(await visit("/errors")).toEqual({ waits: 0, linesAtResponse: 1, linesAtEnd: 1 });
    // /slow is still rendering its slow section when the response starts: the line waits for it.
    expect(await visit("/slow")).toEqual({ waits: 1, linesAtResponse: 0, linesAtEnd: 1 });
  });
});
