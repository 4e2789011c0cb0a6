// Limits that hold against a whole network: a /48 gets a few visitors' worth, the real IPv6
// address counts when Cloudflare's Pseudo IPv4 hides it, and the relay has a ceiling per location.
import { describe, expect, it } from "vitest";
import { inOneWindow } from "../support/rate-limit";
import { dsnFor, envelope, relay } from "../worker/relay-support";

/** A DSN the relay does not forward to: within the limits 403, past them 429, nothing upstream. */
const vars = { SENTRY_DSN: dsnFor(3330) };
const notForwarded = envelope(dsnFor(3331));

const hex = () => crypto.randomUUID().slice(0, 4);
/** A fresh /48 of its own, so no other test's envelopes count against it. */
const network48 = () => `2001:db8:${hex()}`;

const send = (headers: Record<string, string>) => relay({ body: notForwarded, headers }, vars);

// The /48 test sends 186 envelopes: quiet, half a second; beside the browser tests in CI, up to
// 41 s. Each test counts within one of the limiter's windows (inOneWindow): a reset halfway
// through would make its counts say nothing. Up to three runs, one after a wait for a window's
// start: 3 x (60 s + 41 s) at most.
const COUNTED_MS = 300_000;

describe("the relay's limits by network", () => {
  it(
    "gives one /48 at most four visitors' allowance, however many /64s it spreads over",
    () =>
      inOneWindow(async () => {
        const net = network48();
        const admitted: number[] = [];
        for (let subnet = 1; subnet <= 6; subnet++) {
          let ok = 0;
          for (let i = 0; i < 31; i++) {
            const { response } = await send({ "CF-Connecting-IP": `${net}:${subnet}::${i + 1}` });
            if (response.status !== 429) ok++;
            else expect(response.headers.get("Retry-After")).toMatch(/^\d+$/);
          }
          admitted.push(ok);
        }
        expect(admitted[0]).toBe(30);
        expect(admitted.reduce((a, b) => a + b)).toBeLessThanOrEqual(120);
        expect(admitted[5]).toBe(0);
      }),
    COUNTED_MS,
  );

  it(
    "counts a visitor by CF-Connecting-IPv6 when Pseudo IPv4 puts a hashed IPv4 in CF-Connecting-IP",
    () =>
      inOneWindow(async () => {
        const net = network48();
        const statuses: number[] = [];
        for (let i = 0; i < 31; i++) {
          const { response } = await send({
            "CF-Connecting-IP": `240.${i}.${Math.floor(Math.random() * 250)}.1`,
            "CF-Connecting-IPv6": `${net}:1::${i + 1}`,
          });
          statuses.push(response.status);
        }
        expect(statuses.slice(0, 30).every((status) => status === 403)).toBe(true);
        expect(statuses[30]).toBe(429);
      }),
    COUNTED_MS,
  );

  it("answers 429 to a fresh visitor once the location's ceiling is reached", async () => {
    const full = { limit: async () => ({ success: false }) } as unknown as RateLimit;
    const { response, lines } = await relay(
      { body: notForwarded, headers: { "CF-Connecting-IP": `${network48()}:1::1` } },
      { ...vars, RELAY_GLOBAL_LIMITER: full } as Partial<Env>,
    );
    expect(response.status).toBe(429);
    expect(lines[0]).toMatchObject({ kind: "relay", status: 429, level: "warn" });
  });
});
