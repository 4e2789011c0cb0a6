// Spans at the edge (src/server/timings.ts): where the runtime traces Workers, each phase of a
// request is a span with the route, the cache state, where D1 served it and, on failure, the
// digest. Local workerd has `tracing` but never samples, so a tracing that records what is entered
// stands in for the traced edge; the runtime's own, and none at all, must change no answer.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import * as workers from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/server/create-app";
import type { Tracing } from "../../src/server/context";
import { app as product } from "../../src/app";
import { manifest } from "./apps";
import { ORIGIN } from "./action-helpers";

interface Entered {
  name: string;
  attributes: Record<string, unknown>;
  /** Whether the span's callback had settled (the runtime ends the span then). */
  ended: boolean;
}

/** A tracing that records each span entered, as the runtime's API enters it; `sampled`: isTraced. */
function recordingTracing(sampled = true) {
  const spans: Entered[] = [];
  const tracing: Tracing = {
    enterSpan(name, callback, ...args) {
      const entered: Entered = { name, attributes: {}, ended: false };
      spans.push(entered);
      const span = {
        isTraced: sampled,
        setAttribute: (key: string, value?: unknown) => void (entered.attributes[key] = value),
      } as unknown as Span;
      const result = callback(span, ...args);
      const end = () => void (entered.ended = true);
      if (result instanceof Promise) result.then(end, end);
      else end();
      return result;
    },
  };
  return { tracing, spans };
}

const { env } = workers;

function appWith(tracing: Tracing | undefined) {
  // A deploy of its own: the guestbook's shell is not in the edge cache yet (a miss renders it).
  const deploy = { CF_VERSION_METADATA: { id: crypto.randomUUID(), tag: "", timestamp: "" } };
  const lines: Record<string, unknown>[] = [];
  const app = createApp({
    ...product,
    manifest,
    reportError: () => {},
    log: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
    tracing,
  });
  async function send(path: string, init: RequestInit = {}) {
    const ctx = createExecutionContext();
    const response = await app.fetch(new Request(`${ORIGIN}${path}`, init), { ...env, ...deploy }, ctx);
    const body = await response.text();
    await waitOnExecutionContext(ctx);
    return { response, body, line: lines.at(-1)! };
  }
  return { send };
}

describe("spans where the runtime traces Workers", () => {
  it("enters a span for the request and each phase, with the route and where D1 served it", async () => {
    const { tracing, spans } = recordingTracing();
    const { response } = await appWith(tracing).send("/guestbook");
    expect(response.status).toBe(200);
    // The guestbook's session middleware (no session cookie: no query), then its per-visitor loader
    // starts; on a miss its shell is prerendered, then resumed.
    expect(spans.map((span) => span.name)).toEqual([
      "request",
      "match",
      "middleware:session",
      "visitor",
      "cache",
      "loader",
      "shell",
      "resume",
    ]);
    expect(spans.every((span) => span.ended)).toBe(true);
    const loader = spans.find((span) => span.name === "loader")!;
    expect(loader.attributes).toMatchObject({ "http.route": "/guestbook", d1_served_by: "miniflare.db" });
    expect(spans[0]!.attributes).toMatchObject({ "http.route": "/guestbook" });
  });

  it("puts the cache state on the spans after the lookup, and a span for each deferred value", async () => {
    const { tracing, spans } = recordingTracing();
    await appWith(tracing).send(`/slow?span=${crypto.randomUUID()}`);
    expect(spans.map((span) => span.name)).toEqual([
      "request",
      "match",
      "cache",
      "loader",
      "deferred:slow",
      "shell",
    ]);
    expect(spans.find((span) => span.name === "shell")!.attributes).toMatchObject({ cache: "miss" });
    expect(spans[0]!.attributes).toMatchObject({ "http.route": "/slow", cache: "miss" });
  });

  it("gives the failed phase and the request the digest the visitor sees", async () => {
    const { tracing, spans } = recordingTracing();
    const { response, body, line } = await appWith(tracing).send("/errors/loader");
    expect(response.status).toBe(500);
    const digest = /data-testid="digest">([^<]+)</.exec(body)?.[1];
    expect(digest).toBeDefined();
    expect(line.digest).toBe(digest);
    expect(spans.find((span) => span.name === "loader")!.attributes).toMatchObject({ digest });
    expect(spans[0]!.attributes).toMatchObject({ digest, "http.route": "/errors/loader" });
  });

  it("enters only the request's span when the request is not sampled: spans cost CPU", async () => {
    const { tracing, spans } = recordingTracing(false);
    const { response } = await appWith(tracing).send("/guestbook");
    expect(response.status).toBe(200);
    expect(spans.map((span) => span.name)).toEqual(["request"]);
    expect(spans[0]!.attributes).toEqual({});
  });

  it("answers the same with the runtime's own tracing (it samples nothing locally), and with none", async () => {
    expect(typeof workers.tracing.enterSpan).toBe("function");
    for (const tracing of [workers.tracing, undefined]) {
      const { send } = appWith(tracing);
      const page = await send("/guestbook");
      expect(page.response.status).toBe(200);
      expect(page.body).toContain("<h1>Guestbook</h1>");
      expect(Object.keys(page.line.timings as object)).toEqual([
        "match",
        "middleware:session",
        "visitor",
        "cache",
        "loader",
        "d1",
        "shell",
        "resume",
      ]);
      const failed = await send("/errors/loader");
      expect(failed.response.status).toBe(500);
      expect(failed.line.digest).toMatch(/^[0-9a-z]{11}$/);
    }
  });
});
