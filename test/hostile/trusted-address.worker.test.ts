// Only the addresses Cloudflare vouches for count a visitor: CF-Connecting-IPv6 only beside a Pseudo
// IPv4 and only when it is an IPv6 address; a CF-Connecting-IP that is no address is one bucket.
import { beforeAll, describe, expect, it } from "vitest";
import { awaitFreshWindow, FRESH_WINDOW_TIMEOUT_MS, inOneWindow } from "../support/rate-limit";
import { dsnFor, envelope, randomIp, relay } from "../worker/relay-support";
import { postScript, uniqueName } from "../worker/action-helpers";
import { visitorKey } from "../../src/shared/visitor-limit";

/** A DSN the relay does not forward to: within the limits 403, past them 429, nothing upstream. */
const vars = { SENTRY_DSN: dsnFor(3350) };
const notForwarded = envelope(dsnFor(3351));
const send = async (headers: Record<string, string>) =>
  (await relay({ body: notForwarded, headers }, vars)).response.status;
const junk = () => `not-an-address-${crypto.randomUUID()}`;
const keyOf = (headers: Record<string, string>) => visitorKey(new Request("http://localhost/", { headers }));

beforeAll(() => awaitFreshWindow(), FRESH_WINDOW_TIMEOUT_MS);

describe("the addresses a limit trusts", () => {
  it("keeps an IPv4 visitor past their limit at 429 whatever CF-Connecting-IPv6 says", async () => {
    const ip = randomIp();
    for (let i = 0; i < 30; i++) expect(await send({ "CF-Connecting-IP": ip })).toBe(403);
    expect(await send({ "CF-Connecting-IP": ip })).toBe(429);
    expect(await send({ "CF-Connecting-IP": ip, "CF-Connecting-IPv6": junk() })).toBe(429);
    const v6 = `2001:db8:${crypto.randomUUID().slice(0, 4)}:1::1`;
    expect(await send({ "CF-Connecting-IP": ip, "CF-Connecting-IPv6": v6 })).toBe(429);
  });

  it("keeps a visitor past the guestbook's signing limit at 429 whatever CF-Connecting-IPv6 says", async () => {
    const ip = randomIp();
    const sign = async (headers: Record<string, string>) => {
      const fields = { name: uniqueName("trusted"), message: "once more" };
      const response = await postScript("sign", fields, { "CF-Connecting-IP": ip, ...headers });
      await response.arrayBuffer();
      return response.status;
    };
    for (let i = 0; i < 10; i++) expect(await sign({})).toBe(200);
    expect(await sign({})).toBe(429);
    expect(await sign({ "CF-Connecting-IPv6": junk() })).toBe(429);
    expect(await sign({ "CF-Connecting-IPv6": "2001:db8:77::1" })).toBe(429);
  });

  // 200 requests: quiet, a second; beside the browser tests in CI, 18 s. Counted within one of
  // the limiter's windows (inOneWindow), so a reset cannot admit a second allowance unseen.
  it(
    "counts 200 CF-Connecting-IP values that are no address as one visitor",
    () =>
      inOneWindow(async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 200; i++) statuses.push(await send({ "CF-Connecting-IP": junk() }));
        expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(30);
        expect(statuses.slice(-100).every((status) => status === 429)).toBe(true);
      }),
    // Up to three runs, one after a wait for a window's start: 3 x (60 s + its 18 s in CI).
    240_000,
  );

  it("reads CF-Connecting-IPv6 only beside a Pseudo IPv4 (240.0.0.0/4) and only when it is an address", () => {
    const v4 = "203.0.113.9";
    expect(keyOf({ "CF-Connecting-IP": v4, "CF-Connecting-IPv6": "2001:db8:1:2::3" })).toBe(v4);
    expect(keyOf({ "CF-Connecting-IP": v4, "CF-Connecting-IPv6": junk() })).toBe(v4);
    expect(keyOf({ "CF-Connecting-IP": "241.7.7.7", "CF-Connecting-IPv6": "2001:db8:1:2::3" })).toBe(
      "2001:db8:1:2::/64",
    );
    // Beside a Pseudo IPv4, a header that is no IPv6 address leaves the hashed IPv4 as the key.
    expect(keyOf({ "CF-Connecting-IP": "241.7.7.7", "CF-Connecting-IPv6": junk() })).toBe("241.7.7.7");
    expect(keyOf({ "CF-Connecting-IP": "241.7.7.7", "CF-Connecting-IPv6": "203.0.113.9" })).toBe("241.7.7.7");
  });

  it("gives every malformed CF-Connecting-IP one key that no address has", () => {
    const keys = new Set(
      [junk(), junk(), "1:2:3::4::5", "999.1.1.1", "1.2.3", "a.b.c.d", "::ffff:1.2.3.4.5", ""].map((ip) =>
        keyOf({ "CF-Connecting-IP": ip }),
      ),
    );
    expect(keys.size).toBe(1);
    const [key] = keys;
    expect(key).not.toBe(keyOf({}));
    expect(key).not.toMatch(/^[0-9a-f:.]+(\/\d+)?$/);
  });
});
