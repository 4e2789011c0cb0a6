// Web Vitals on the server: the sampling setting the page data carries, the ray documents and page
// data name for them, and the relay's log line for a report (checked: no URL, no made-up route).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { productApp } from "./apps";
import { dsnFor, randomIp, received, relay } from "./relay-support";
import { VITALS_KEY } from "../../src/shared/vitals";

const PROJECT = 3340;
const DSN = { SENTRY_DSN: dsnFor(PROJECT) };

/** Requests `path` from the product with `vars`; its answer, body, and its one log line. */
async function page(path: string, vars: Partial<Env>, headers: Record<string, string> = {}) {
  const lines: string[] = [];
  const app = productApp({ reportError: () => {}, log: (line) => lines.push(line) });
  const ctx = createExecutionContext();
  const response = await app.fetch(
    new Request(`http://localhost${path}`, { headers }),
    { ...env, ...vars },
    ctx,
  );
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  return { response, body, line: JSON.parse(lines.at(-1)!) as Record<string, unknown> };
}

const pageDataOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="__verge_page"[^>]*>(.*?)<\/script>/s.exec(html)![1]!);

describe("Web Vitals sampling (VITALS_SAMPLE_RATE)", () => {
  it("asks one page load in ten deployed when unset, every one on the local servers", async () => {
    expect(pageDataOf((await page("/errors", { ...DSN, VITALS_SAMPLE_RATE: "" })).body).vitals).toBe(0.1);
    const local = { ...DSN, VITALS_SAMPLE_RATE: "", LOCAL_SERVER: "1" } as Partial<Env>;
    expect(pageDataOf((await page("/errors", local)).body).vitals).toBe(1);
    expect(pageDataOf((await page("/errors", { ...DSN, VITALS_SAMPLE_RATE: "0.25" })).body).vitals).toBe(
      0.25,
    );
  });

  it('asks none with "0" (or a value that is not a number), and none without a DSN', async () => {
    for (const rate of ["0", "off"]) {
      const { body, response } = await page("/errors", { ...DSN, VITALS_SAMPLE_RATE: rate });
      expect(pageDataOf(body)).not.toHaveProperty("vitals");
      expect(pageDataOf(body).reporter).toBeDefined();
      expect(response.headers.get("Server-Timing")).toBeNull();
    }
    const { body, response } = await page("/errors", { SENTRY_DSN: "", VITALS_SAMPLE_RATE: "1" });
    expect(body).not.toContain('"vitals"');
    expect(response.headers.get("Server-Timing")).toBeNull();
  });
});

describe("the ray of a page's answer", () => {
  it("is in Server-Timing on documents and page data, without a duration, and is the log line's ray", async () => {
    const vars = { ...DSN, VITALS_SAMPLE_RATE: "1" };
    for (const headers of [{}, { "X-Page-Data": "1" }] as Record<string, string>[]) {
      const { response, line } = await page("/guestbook", vars, headers);
      expect(response.headers.get("Server-Timing")).toBe(`ray;desc="${line.ray}"`);
    }
    const fromCloudflare = await page("/", vars, { "cf-ray": "8f1c2a9e4b7d6a3c-LHR" });
    expect(fromCloudflare.response.headers.get("Server-Timing")).toContain('ray;desc="8f1c2a9e4b7d6a3c-LHR"');
  });

  it("is left out when it is not a ray (a cf-ray header a local client made up)", async () => {
    const { response } = await page(
      "/errors",
      { ...DSN, VITALS_SAMPLE_RATE: "1" },
      { "cf-ray": 'x", evil;dur=1' },
    );
    expect(response.headers.get("Server-Timing")).toBeNull();
  });
});

/** A vitals envelope with `summary` in its header, as the browser collector writes one. */
function vitalsEnvelope(summary: Record<string, unknown>): string {
  const eventId = crypto.randomUUID().replaceAll("-", "");
  const traceId = crypto.randomUUID().replaceAll("-", "");
  const now = Date.now() / 1000;
  const event = {
    event_id: eventId,
    type: "transaction",
    transaction: "/guestbook",
    start_timestamp: now - 2,
    timestamp: now,
    contexts: { trace: { trace_id: traceId, span_id: traceId.slice(0, 16), op: "pageload" } },
    measurements: { lcp: { value: 1234.5, unit: "millisecond" }, cls: { value: 0.05, unit: "none" } },
  };
  const header = {
    event_id: eventId,
    dsn: DSN.SENTRY_DSN,
    trace: { trace_id: traceId },
    [VITALS_KEY]: summary,
  };
  return `${JSON.stringify(header)}\n{"type":"transaction"}\n${JSON.stringify(event)}\n`;
}

describe("the relay's log line for a vitals report", () => {
  it("holds the route pattern, build, navigation, ray and values, and forwards the envelope", async () => {
    const summary = {
      route: "/guestbook",
      build: "3cd9c28ab6b6",
      navigation: "navigate",
      ray: "8f1c2a9e4b7d6a3c",
      lcp: 1234.5678,
      fcp: 800,
      inp: 40,
      ttfb: 120.04,
      cls: 0.123456,
    };
    const { response, lines } = await relay({ body: vitalsEnvelope(summary) }, DSN);
    expect(response.status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ kind: "relay", path: "/monitoring", status: 200 });
    expect(lines[0]!.vitals).toEqual({ ...summary, lcp: 1234.6, ttfb: 120, cls: 0.1235 });
    expect(await received(PROJECT)).toHaveLength(1);
  });

  it("keeps only checked values: no URL or other key, no value out of range, no made-up route", async () => {
    const summary = {
      route: "/guestbook",
      build: "3cd9c28ab6b6",
      navigation: "client",
      url: "https://verge.example/guestbook?name=visitor",
      ray: "<script>",
      lcp: -1,
      inp: 1e12,
      cls: "0.1",
      fcp: 500,
    };
    const { lines } = await relay({ body: vitalsEnvelope(summary) }, DSN);
    expect(lines[0]!.vitals).toEqual({
      route: "/guestbook",
      build: "3cd9c28ab6b6",
      navigation: "client",
      fcp: 500,
    });
    for (const route of ["/guestbook?name=visitor", "/nowhere", "https://verge.example/"]) {
      const refused = await relay({ body: vitalsEnvelope({ ...summary, route }) }, DSN);
      expect(refused.response.status).toBe(200); // forwarded all the same: Sentry decides what it keeps
      expect(refused.lines[0]).not.toHaveProperty("vitals");
    }
  });

  it("is refused like any envelope from another site, before it is read", async () => {
    const { response, lines } = await relay(
      {
        body: vitalsEnvelope({ route: "/", build: "3cd9c28ab6b6", navigation: "navigate" }),
        headers: { Origin: "https://elsewhere.example", "CF-Connecting-IP": randomIp() },
      },
      DSN,
    );
    expect(response.status).toBe(403);
    expect(lines[0]).not.toHaveProperty("vitals");
  });
});
