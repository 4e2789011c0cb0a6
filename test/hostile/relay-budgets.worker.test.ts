// Web Vitals and error reports have relay budgets of their own: however many vitals arrive, an
// error report from a visitor within limits goes upstream, and the other way round. A request
// marked as vitals must be one vitals envelope, so an error cannot ride on the vitals budget.
import { beforeAll, describe, expect, it } from "vitest";
import { awaitFreshWindow, FRESH_WINDOW_TIMEOUT_MS } from "../support/rate-limit";
import { dsnFor, envelope, randomIp, received, relay } from "../worker/relay-support";
import { VITALS_HEADER, VITALS_KEY } from "../../src/shared/vitals";

const marked = { [VITALS_HEADER]: "1" };
const full = { limit: async () => ({ success: false }) } as unknown as RateLimit;
const VITALS_FULL = { VITALS_LIMITER: full, VITALS_NETWORK_LIMITER: full, VITALS_GLOBAL_LIMITER: full };
const ERRORS_FULL = { RELAY_LIMITER: full, RELAY_NETWORK_LIMITER: full, RELAY_GLOBAL_LIMITER: full };

/** A vitals report as the browser's collector writes it: one transaction, the summary in the header. */
function vitalsEnvelope(dsn: string, items?: string): string {
  const eventId = crypto.randomUUID().replaceAll("-", "");
  const traceId = crypto.randomUUID().replaceAll("-", "");
  const now = Date.now() / 1000;
  const event = {
    event_id: eventId,
    type: "transaction",
    transaction: "/",
    start_timestamp: now - 2,
    timestamp: now,
    contexts: { trace: { trace_id: traceId, span_id: traceId.slice(0, 16), op: "pageload" } },
    measurements: { lcp: { value: 1234.5, unit: "millisecond" } },
  };
  const header = {
    event_id: eventId,
    dsn,
    [VITALS_KEY]: { route: "/", build: "abc123", navigation: "navigate" },
  };
  return (
    [header, { type: "transaction" }, event].map((part) => JSON.stringify(part)).join("\n") + (items ?? "")
  );
}

let project = 3360;
/** A project of its own for each test, so what reached the fake ingest is this test's. */
const fresh = () => {
  const id = project++;
  return { id, vars: { SENTRY_DSN: dsnFor(id) } };
};

beforeAll(() => awaitFreshWindow(), FRESH_WINDOW_TIMEOUT_MS);

describe("the relay's budgets for vitals and errors", () => {
  it("forwards a visitor's error report after their vitals were refused for their own limit", async () => {
    const { id, vars } = fresh();
    const ip = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 40 && !statuses.includes(429); i++) {
      const headers = { ...marked, "CF-Connecting-IP": ip };
      statuses.push((await relay({ body: vitalsEnvelope(vars.SENTRY_DSN), headers }, vars)).response.status);
    }
    expect(statuses.at(-1)).toBe(429);
    // Fewer vitals than error reports: a visitor's page views cannot spend their error budget.
    expect(statuses.length).toBeLessThan(30);
    const { response } = await relay(
      { body: envelope(vars.SENTRY_DSN), headers: { "CF-Connecting-IP": ip } },
      vars,
    );
    expect(response.status).toBe(200);
    const sent = await received(id);
    expect(sent.filter((one) => one.items[0]?.header.type === "event")).toHaveLength(1);
  });

  it("forwards an error report while every vitals budget (visitor, network, location) is spent", async () => {
    const { id, vars } = fresh();
    const spent = { ...vars, ...VITALS_FULL } as Partial<Env>;
    const vitals = await relay({ body: vitalsEnvelope(vars.SENTRY_DSN), headers: marked }, spent);
    expect(vitals.response.status).toBe(429);
    expect(vitals.response.headers.get("Retry-After")).toMatch(/^\d+$/);
    const error = await relay({ body: envelope(vars.SENTRY_DSN) }, spent);
    expect(error.response.status).toBe(200);
    expect(await received(id)).toHaveLength(1);
  });

  it("forwards a vitals report while every error budget is spent", async () => {
    const { id, vars } = fresh();
    const spent = { ...vars, ...ERRORS_FULL } as Partial<Env>;
    expect((await relay({ body: envelope(vars.SENTRY_DSN) }, spent)).response.status).toBe(429);
    const vitals = await relay({ body: vitalsEnvelope(vars.SENTRY_DSN), headers: marked }, spent);
    expect(vitals.response.status).toBe(200);
    expect(vitals.lines[0]).toMatchObject({ kind: "relay", status: 200, vitals: { route: "/" } });
    expect(await received(id)).toHaveLength(1);
  });

  it("refuses an error envelope marked as vitals, with 400 and nothing forwarded", async () => {
    const { id, vars } = fresh();
    const { response, lines } = await relay({ body: envelope(vars.SENTRY_DSN), headers: marked }, vars);
    expect(response.status).toBe(400);
    expect(lines[0]).toMatchObject({ kind: "relay", status: 400, level: "warn" });
    expect(await received(id)).toHaveLength(0);
  });

  it("refuses a vitals envelope marked as vitals that carries another item after its transaction", async () => {
    const { id, vars } = fresh();
    const riding = `\n{"type":"attachment","filename":"riding.txt"}\nwhat the vitals budget should not pay for`;
    const { response } = await relay(
      { body: vitalsEnvelope(vars.SENTRY_DSN, riding), headers: marked },
      vars,
    );
    expect(response.status).toBe(400);
    expect(await received(id)).toHaveLength(0);
  });

  it("counts a vitals envelope sent without the mark against the error budget", async () => {
    const { id, vars } = fresh();
    const body = vitalsEnvelope(vars.SENTRY_DSN);
    const spent = { ...vars, ...ERRORS_FULL } as Partial<Env>;
    expect((await relay({ body }, spent)).response.status).toBe(429);
    expect((await relay({ body }, { ...vars, ...VITALS_FULL } as Partial<Env>)).response.status).toBe(200);
    expect(await received(id)).toHaveLength(1);
  });
});
