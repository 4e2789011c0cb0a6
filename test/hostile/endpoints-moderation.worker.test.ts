// The moderation webhook (src/app/endpoints/moderation.ts) through the product's app and local D1:
// it hides an entry only for a body signed with MODERATION_SECRET within the last 5 minutes, and
// refuses everything else with a 4xx, never a 5xx; a sender past its limit gets 429 before any hashing.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import { countEntries, listEntries } from "../../src/app/db/guestbook.server";
import { recordedApp } from "../worker/apps";
import { uniqueName } from "../worker/action-helpers";
import { randomIp } from "../worker/relay-support";
import { awaitFreshWindow, FRESH_WINDOW_TIMEOUT_MS } from "../support/rate-limit";

const SECRET = "a moderation secret of more than 32 bytes, for tests";
const { send } = recordedApp(app.routes);

const now = () => Math.floor(Date.now() / 1000);

/** The X-Signature of `body` signed at `timestamp` (Unix seconds): the HMAC of "<timestamp>." and the body. */
async function signAt(timestamp: number | string, body: string, secret = SECRET): Promise<string> {
  return signBytes(`${timestamp}.${body}`, secret);
}

/** Both headers of a body signed now (or at `timestamp`). */
async function signed(body: string, { secret = SECRET, timestamp = now() } = {}) {
  return { "X-Signature-Timestamp": String(timestamp), "X-Signature": await signAt(timestamp, body, secret) };
}

async function signBytes(body: string, secret = SECRET): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)));
  return `sha256=${Array.from(mac, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** Posts `body` to the webhook with `headers`, the worker's MODERATION_SECRET as `vars` say. */
function hook(
  body: BodyInit,
  headers: Record<string, string> = {},
  vars: Partial<Env> = { MODERATION_SECRET: SECRET },
) {
  return send(
    "/hooks/moderation",
    // A sender of its own for each request, unless the test names one: the limit is per sender.
    {
      method: "POST",
      body,
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": randomIp(), ...headers },
    },
    vars,
  );
}

/** A new visible entry's id. */
async function newEntry(): Promise<number> {
  const name = uniqueName("moderated");
  const row = await env.DB.prepare(
    "INSERT INTO guestbook (name, message, idempotency_key) VALUES (?, 'to moderate', ?) RETURNING id",
  )
    .bind(name, name)
    .first<{ id: number }>();
  return row!.id;
}

const hidden = async (id: number) =>
  (await env.DB.prepare("SELECT hidden_at FROM guestbook WHERE id = ?")
    .bind(id)
    .first<{ hidden_at: string | null }>())!.hidden_at !== null;

afterEach(() => vi.restoreAllMocks());

describe("the moderation webhook", () => {
  it("hides the entry a signed body names, from another site too: not listed, not counted", async () => {
    const id = await newEntry();
    const before = await countEntries(env.DB);
    const body = JSON.stringify({ hide: id });
    const {
      response,
      body: answer,
      lines,
    } = await hook(body, {
      ...(await signed(body)),
      Origin: "https://moderation.example",
      "Sec-Fetch-Site": "cross-site",
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(answer)).toEqual({ hidden: id });
    expect(lines[0]).toMatchObject({ kind: "endpoint", route: "/hooks/moderation", status: 200 });
    expect(await hidden(id)).toBe(true);
    expect(await countEntries(env.DB)).toBe(before - 1);
    const { entries } = await listEntries(env.DB, 1);
    expect(entries.map((entry) => entry.id)).not.toContain(id);
  });

  it("hides an entry once: the same signed body again changes nothing", async () => {
    const id = await newEntry();
    const body = JSON.stringify({ hide: id });
    const headers = await signed(body);
    expect((await hook(body, headers)).response.status).toBe(200);
    const after = await countEntries(env.DB);
    expect((await hook(body, headers)).response.status).toBe(200);
    expect(await countEntries(env.DB)).toBe(after);
  });

  it("refuses a wrong signature with 401, and hides nothing", async () => {
    const id = await newEntry();
    const body = JSON.stringify({ hide: id });
    const { response } = await hook(body, await signed(body, { secret: `${SECRET} but another` }));
    expect(response.status).toBe(401);
    expect(await hidden(id)).toBe(false);
  });

  it("refuses a body replayed with another body's signature", async () => {
    const [first, second] = [await newEntry(), await newEntry()];
    const headers = await signed(JSON.stringify({ hide: first }));
    const { response } = await hook(JSON.stringify({ hide: second }), headers);
    expect(response.status).toBe(401);
    expect(await hidden(second)).toBe(false);
  });

  it("refuses a missing or malformed X-Signature with 401", async () => {
    const id = await newEntry();
    const body = JSON.stringify({ hide: id });
    const timestamp = String(now());
    const hex = (await signAt(timestamp, body)).slice("sha256=".length);
    const cases: Record<string, string>[] = [
      {},
      { "X-Signature": hex },
      { "X-Signature": `sha1=${hex}` },
      { "X-Signature": "sha256=00" },
    ];
    for (const headers of cases) {
      expect((await hook(body, { "X-Signature-Timestamp": timestamp, ...headers })).response.status).toBe(
        401,
      );
    }
    expect(await hidden(id)).toBe(false);
  });

  it("accepts nothing without a secret of 32 bytes, signed or not, and logs why", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const id = await newEntry();
    const body = JSON.stringify({ hide: id });
    for (const secret of [undefined, "", "short"]) {
      const headers = await signed(body, { secret: secret || "x" });
      const { response } = await hook(body, headers, { MODERATION_SECRET: secret });
      expect(response.status).toBe(401);
    }
    expect(await hidden(id)).toBe(false);
    expect(warn.mock.calls.map(([line]) => String(line))).toEqual([
      expect.stringContaining("MODERATION_SECRET is not set"),
      expect.stringContaining("MODERATION_SECRET is not set"),
      expect.stringContaining("MODERATION_SECRET is shorter than 32 bytes"),
    ]);
  });

  it("refuses a signed body that is not {hide: <entry id>} with 400", async () => {
    for (const body of [
      "not json",
      "[1]",
      '{"hide":"1"}',
      '{"hide":1.5}',
      '{"hide":0}',
      '{"hide":1,"also":2}',
      "\xff",
    ]) {
      const { response, body: answer } = await hook(body, await signed(body));
      expect(response.status, body).toBe(400);
      expect(JSON.parse(answer)).toHaveProperty("error.message");
    }
  });

  it("answers 404 for an entry that does not exist", async () => {
    const body = JSON.stringify({ hide: 2_000_000_000 });
    const { response } = await hook(body, await signed(body));
    expect(response.status).toBe(404);
  });

  it("refuses a body over 1 MiB with 413 and another method with 405", async () => {
    const body = JSON.stringify({ hide: 1, pad: "x".repeat(1024 * 1024) });
    expect((await hook(body, await signed(body))).response.status).toBe(413);
    const get = await send("/hooks/moderation", {}, { MODERATION_SECRET: SECRET });
    expect(get.response.status).toBe(405);
    expect(get.response.headers.get("Allow")).toBe("POST, OPTIONS");
  });
  it("refuses a body signed without a time, as one leaked from the old scheme, with 401", async () => {
    const id = await newEntry();
    const body = JSON.stringify({ hide: id });
    const { response } = await hook(body, { "X-Signature": await signBytes(body) });
    expect(response.status).toBe(401);
    expect(await hidden(id)).toBe(false);
  });

  it("refuses a signature made more than 5 minutes ago, or ahead of the clock, and hides nothing", async () => {
    const id = await newEntry();
    const body = JSON.stringify({ hide: id });
    // Each read from the clock just before its own request: read once for all three, the second
    // was a request later, and on a busy machine that was past a second, inside the window.
    for (const at of [() => now() - 301, () => now() + 301, () => 0]) {
      const timestamp = at();
      const { response, body: answer } = await hook(body, await signed(body, { timestamp }));
      expect(response.status, String(timestamp)).toBe(401);
      expect(answer).toContain("5 minutes");
    }
    expect(await hidden(id)).toBe(false);
    // Within the window, either side of the clock.
    expect((await hook(body, await signed(body, { timestamp: now() - 240 }))).response.status).toBe(200);
    expect(await hidden(id)).toBe(true);
  });

  it("refuses a signed time changed apart from its body", async () => {
    const id = await newEntry();
    const body = JSON.stringify({ hide: id });
    const old = await signed(body, { timestamp: now() - 3600 });
    const { response } = await hook(body, { ...old, "X-Signature-Timestamp": String(now()) });
    expect(response.status).toBe(401);
    expect(await hidden(id)).toBe(false);
  });

  it(
    "answers a sender's 31st request in a minute 429 with Retry-After, signed or not, before hashing it",
    async () => {
      await awaitFreshWindow();
      const sender = { "CF-Connecting-IP": randomIp() };
      const big = JSON.stringify({ hide: 1, pad: "x".repeat(512 * 1024) });
      for (let i = 0; i < 30; i++) {
        const { response } = await hook(big, {
          ...sender,
          "X-Signature": `sha256=${"0".repeat(64)}`,
          "X-Signature-Timestamp": String(now()),
        });
        expect(response.status).toBe(401);
      }
      const id = await newEntry();
      const body = JSON.stringify({ hide: id });
      const { response } = await hook(body, { ...sender, ...(await signed(body)) });
      expect(response.status).toBe(429);
      expect(response.headers.get("Retry-After")).toBe("60");
      expect(await hidden(id)).toBe(false);
      // Another sender is not held back.
      expect((await hook(body, await signed(body))).response.status).toBe(200);
    },
    FRESH_WINDOW_TIMEOUT_MS + 30_000,
  );
});
