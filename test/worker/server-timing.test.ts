// Server-Timing (src/server/timings.ts): what a browser's network panel shows of where a page's
// time went, on documents, page data, cache hits and action re-renders; off in production settings
// unless SERVER_TIMING is set; never part of what the edge cache keeps.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/server/create-app";
import { cacheGeneration, cacheKey } from "../../src/server/cache-entry";
import { app as product } from "../../src/app";
import { manifest } from "./apps";
import { ORIGIN, visitorIp } from "./action-helpers";

const app = createApp({ ...product, manifest, reportError: () => {}, log: () => {} });
const ON = { SERVER_TIMING: "1" };
const PRODUCTION = { SERVER_TIMING: "" };

/** The same app as `vite dev` serves it (its manifest's mode), and npm run dev's own vars. */
const devApp = createApp({
  ...product,
  manifest: { ...manifest, mode: "development" },
  reportError: () => {},
});

async function send(path: string, init: RequestInit = {}, vars: Partial<Env> = ON, served = app) {
  const ctx = createExecutionContext();
  const response = await served.fetch(new Request(`${ORIGIN}${path}`, init), { ...env, ...vars }, ctx);
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  return { response, body };
}

interface Metric {
  name: string;
  dur?: number;
  desc?: string;
}

/**
 * The header's metrics, parsed strictly by the Server-Timing grammar: a token, then `;param=value`
 * pairs where a value is a token or a quoted string. Anything else fails the test.
 */
function metrics(response: Response): Metric[] {
  const header = response.headers.get("Server-Timing");
  expect(header, "a Server-Timing header").not.toBeNull();
  const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
  const value = `(?:${token}|"(?:[^"\\\\]|\\\\.)*")`;
  const entry = new RegExp(`^(${token})((?:\\s*;\\s*${token}\\s*=\\s*${value})*)$`);
  return header!.split(/\s*,\s*/).map((text) => {
    const match = entry.exec(text);
    expect(match, `a well-formed entry: ${text}`).not.toBeNull();
    const metric: Metric = { name: match![1]! };
    for (const [, name, raw] of match![2]!.matchAll(new RegExp(`;\\s*(${token})\\s*=\\s*(${value})`, "g"))) {
      if (name === "dur") {
        expect(raw, "dur is a number of milliseconds").toMatch(/^\d+(\.\d+)?$/);
        metric.dur = Number(raw);
      } else if (name === "desc") metric.desc = raw!.replace(/^"|"$/g, "");
    }
    return metric;
  });
}

const names = (response: Response) => metrics(response).map((metric) => metric.name);
const pageData = { "X-Page-Data": "1" };
const plainForm = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: {
    "Content-Type": "application/x-www-form-urlencoded",
    Origin: ORIGIN,
    "Sec-Fetch-Site": "same-origin",
    "CF-Connecting-IP": visitorIp(),
  },
  body: new URLSearchParams(fields).toString(),
});
/** Settings of a deploy of its own: its version keys the edge cache, so its cached pages start empty. */
const freshDeploy = (vars: Partial<Env> = ON): Partial<Env> => ({
  ...vars,
  CF_VERSION_METADATA: { id: crypto.randomUUID(), tag: "", timestamp: "" },
});

describe("Server-Timing", () => {
  it("on an HTML page: the route match, the loader, D1's time and query count, and the shell", async () => {
    // The guestbook's first request in a deploy: its shell is prerendered, then resumed (after the
    // header: the prelude is sent first, so the resume is on the log line only: shell.test.tsx).
    const { response } = await send("/guestbook", {}, freshDeploy());
    expect(response.status).toBe(200);
    // The guestbook's middleware (who the visitor is) runs first, named by its function.
    expect(names(response)).toEqual(["match", "middleware", "cache", "loader", "d1", "shell"]);
    expect(metrics(response)[1]).toMatchObject({ name: "middleware", desc: "session" });
    const d1 = metrics(response).find((metric) => metric.name === "d1")!;
    // The guestbook page reads its entries and their count in one batch of two statements.
    expect(d1.desc).toBe("2 queries");
    for (const metric of metrics(response)) expect(metric.dur, metric.name).toBeGreaterThanOrEqual(0);
  });

  it("on page data: the same phases before the answer, and no shell", async () => {
    const { response } = await send("/guestbook?_data=1", { headers: pageData }, freshDeploy());
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(names(response)).toEqual(["match", "middleware", "cache", "loader", "d1"]);
  });

  it("on a stored shell: the lookup, said to be a shell; no loader, no render", async () => {
    const deploy = freshDeploy();
    await send("/guestbook", {}, deploy);
    const { response, body } = await send("/guestbook", {}, deploy);
    expect(names(response)).toEqual(["match", "middleware", "cache"]);
    expect(metrics(response)[2]).toMatchObject({ name: "cache", desc: "shell" });
    expect(body).toContain("<h1>Guestbook</h1>");
  });

  it("on a cached page: the cache state, a miss with its render, then a hit with its own header", async () => {
    const deploy = freshDeploy();
    const miss = await send("/", {}, deploy);
    const hit = await send("/", {}, deploy);
    expect(metrics(miss.response).find((metric) => metric.name === "cache")).toMatchObject({ desc: "miss" });
    expect(names(miss.response)).toEqual(["match", "cache", "shell"]);
    expect(names(hit.response)).toEqual(["match", "cache"]);
    expect(metrics(hit.response)[1]).toMatchObject({ name: "cache", desc: "hit" });
    expect(hit.body).toContain("<h1>verge</h1>");
  });

  it("on page data from the cache: its own header, with the hit", async () => {
    const deploy = freshDeploy();
    await send("/", { headers: pageData }, deploy);
    const hit = await send("/", { headers: pageData }, deploy);
    expect(metrics(hit.response).find((metric) => metric.name === "cache")).toMatchObject({ desc: "hit" });
  });

  it("on a plain form's refused action: the action, the page's reload and its shell", async () => {
    const { response, body } = await send(
      "/guestbook",
      plainForm({ _action: "sign", name: " ", message: "m" }),
    );
    expect(response.status).toBe(422);
    expect(body).toContain("<!DOCTYPE html>");
    expect(names(response)).toEqual(["match", "middleware", "action", "loader", "d1", "shell"]);
  });

  it("is absent in production settings, on every kind of answer, unless SERVER_TIMING is set", async () => {
    const answers = [
      await send("/guestbook", {}, PRODUCTION),
      await send("/guestbook?_data=1", { headers: pageData }, PRODUCTION),
      await send("/guestbook", plainForm({ _action: "sign", name: " ", message: "m" }), PRODUCTION),
    ];
    const deploy = freshDeploy(PRODUCTION);
    await send("/", {}, deploy);
    answers.push(await send("/", {}, deploy));
    for (const { response } of answers) expect(response.headers.get("Server-Timing")).toBeNull();
    // As wrangler.toml sets it for a deploy: the empty string.
    expect(env.SERVER_TIMING).toBe("");
    expect((await send("/guestbook", {}, env)).response.headers.get("Server-Timing")).toBeNull();
  });

  it("is on under npm run dev (its manifest) and npm run preview (LOCAL_SERVER) without SERVER_TIMING", async () => {
    // The guestbook's shell: past the cache under vite dev ("bypass"), a miss in a fresh deploy.
    const dev = await send("/guestbook", {}, PRODUCTION, devApp);
    const preview = await send(
      "/guestbook",
      {},
      freshDeploy({ ...PRODUCTION, LOCAL_SERVER: "1" } as Partial<Env>),
    );
    for (const { response } of [dev, preview])
      expect(names(response)).toEqual(["match", "middleware", "cache", "loader", "d1", "shell"]);
  });

  it("is never stored in the edge cache: the entries of a page hold none", async () => {
    const deploy = freshDeploy();
    await send("/", {}, deploy);
    await send("/", { headers: pageData }, deploy);
    const url = new URL("/", ORIGIN);
    for (const kind of ["html", "data"] as const) {
      const entry = await (caches as unknown as { default: Cache }).default.match(
        cacheKey(url, kind, cacheGeneration(manifest.build, { ...env, ...deploy } as Env)),
      );
      expect(entry, `a stored ${kind} entry`).toBeDefined();
      expect(entry!.headers.get("Server-Timing"), kind).toBeNull();
      expect(await entry!.text(), kind).not.toMatch(/dur=/);
    }
  });
});
