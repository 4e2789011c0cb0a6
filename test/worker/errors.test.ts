// Server fallbacks: the visitor sees the fixed text and a digest; the same digest is in the
// log line and tagged on the Sentry event toucan sends (to the fake ingest).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createSentryReporter } from "../../src/server/sentry-reporter";
import { SERVER_ERROR_TEXT } from "../../src/shared/error-views";
import { manifest, productApp } from "./apps";
import { eventOf } from "../support/envelope";
import { dsnFor, received } from "./relay-support";
import { digestIn } from "./html";

async function visit(path: string, project: number | null, headers: Record<string, string> = {}) {
  const lines: string[] = [];
  const app = productApp({ reportError: createSentryReporter(), log: (line) => lines.push(line) });
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, {
    headers: { Cookie: "session=secret-cookie", Authorization: "Bearer secret-token", ...headers },
  });
  const response = await app.fetch(request, { ...env, SENTRY_DSN: project ? dsnFor(project) : "" }, ctx);
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  return { response, body, lines: lines.map((line) => JSON.parse(line) as Record<string, any>) };
}

describe.each([
  ["/errors/loader", 41, "Loader failed on purpose"],
  ["/errors/render", 42, "Render failed on purpose"],
])("%s (fails before the shell)", (path, project, message) => {
  it("answers 500 with the fixed text, a digest and Reload, and nothing of the error", async () => {
    const { response, body } = await visit(path, project);
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(body).toContain(SERVER_ERROR_TEXT);
    expect(digestIn(body)).toMatch(/^[0-9a-z]{8,16}$/);
    expect(body).toMatch(/>Reload</);
    expect(body).not.toContain(message);
    expect(body).not.toMatch(/\.tsx?|at \w+ \(/);
  });

  it("puts the same digest in the log line and on the Sentry event, without cookies or authorization", async () => {
    const { body, lines } = await visit(path, project);
    const digest = digestIn(body)!;
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", status: 500, route: path, digest });
    expect(lines[0]!.message).toContain(message);
    const events = (await received(project)).map(eventOf).filter((event) => event?.tags?.digest === digest);
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.tags).toEqual({ digest, route: path, ray: lines[0]!.ray });
    expect(event.release).toBe(manifest.build);
    expect(event.exception.values[0]).toMatchObject({ type: "Error" });
    expect(event.exception.values[0].value).toContain(message);
    expect(event.exception.values[0].stacktrace.frames.length).toBeGreaterThan(0);
    expect(event.request.url).toBe(`http://localhost${path}`);
    const sent = JSON.stringify(event);
    expect(sent).not.toContain("secret-cookie");
    expect(sent).not.toContain("secret-token");
  });
});

describe("/errors/stream (fails inside a Suspense boundary)", () => {
  it("keeps status 200, shows the route error view with a digest, and keeps the rest of the page", async () => {
    const { response, body, lines } = await visit("/errors/stream", 43);
    expect(response.status).toBe(200);
    expect(body).toContain("<h1>Stream error</h1>");
    expect(body).toContain('data-testid="route-error"');
    expect(body).toContain("Back to the home page");
    expect(body).not.toContain("Streamed section failed on purpose");
    const digest = digestIn(body)!;
    expect(digest).toMatch(/^[0-9a-z]{8,16}$/);
    expect(lines[0]).toMatchObject({ status: 200, digest });
    const events = (await received(43)).map(eventOf);
    expect(events.map((event) => event?.tags?.digest)).toContain(digest);
  });
});

describe("without SENTRY_DSN", () => {
  it("still answers the fallback and writes the log line with the digest", async () => {
    const { response, body, lines } = await visit("/errors/loader", null);
    expect(response.status).toBe(500);
    expect(lines[0]).toMatchObject({ digest: digestIn(body) });
  });
});

describe("page data of a failing loader", () => {
  it("answers 500 JSON with only the digest", async () => {
    const { response, body, lines } = await visit("/errors/loader", 44, { "X-Page-Data": "1" });
    expect(response.status).toBe(500);
    expect(JSON.parse(body)).toEqual({ error: { digest: lines[0]!.digest } });
  });
});
