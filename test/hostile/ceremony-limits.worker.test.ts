// Every step of every passkey ceremony counts against the visitor's limit and their network's:
// a burst is refused with 429 and Retry-After, and a refused request writes nothing (no challenge
// stored or taken, no session, no account).
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { awaitFreshWindow } from "../support/rate-limit";
import { ORIGIN, uniqueName, visitorIp } from "../worker/action-helpers";
import { cookiesOf, postJson, signUp } from "../worker/sign-in-support";

// The bursts below take a few seconds; started with 40 s of the window left, none straddles a reset.
const MARGIN_MS = 40_000;
// Its time alone is that wait at most: three times it, as every limit here.
beforeAll(() => awaitFreshWindow(60, MARGIN_MS), 3 * MARGIN_MS);

const hex = () => crypto.randomUUID().slice(0, 4);

const fetchWorker = (path: string, init: RequestInit) => exports.default.fetch(`${ORIGIN}${path}`, init);

/** A same-site JSON post from `ip` (a fixed visitor), with `cookie`. */
const postFrom = (ip: string, path: string, body: unknown, cookie = "") =>
  fetchWorker(path, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/json",
      Origin: ORIGIN,
      "Sec-Fetch-Site": "same-origin",
      "CF-Connecting-IP": ip,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: JSON.stringify(body),
  });

/** How many rows each table the ceremonies write holds. */
async function rows() {
  const count = async (table: string) =>
    (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
  return {
    challenges: await count("webauthn_challenges"),
    sessions: await count("sessions"),
    accounts: await count("accounts"),
    passkeys: await count("passkeys"),
  };
}

/** Sends `send` until the limit refuses one; how many went through, and the refusal. */
async function burst(send: () => Promise<Response>, max = 12) {
  let admitted = 0;
  for (let i = 0; i < max; i++) {
    const response = await send();
    if (response.status === 429) return { admitted, refused: response };
    await response.arrayBuffer();
    admitted++;
  }
  return { admitted, refused: null };
}

/** A pending ceremony's attempt cookie, begun by another visitor (so it is not counted here). */
async function pendingAttempt(path: string, body: unknown, cookie = "") {
  const start = await postJson(path, body, cookie);
  expect(start.status).toBe(200);
  return cookiesOf(start)["__Host-passkey-attempt"]!;
}

async function expectRefusedQuietly(refused: Response | null, before: Awaited<ReturnType<typeof rows>>) {
  expect(refused?.status).toBe(429);
  expect(refused!.headers.get("Retry-After")).toBe("60");
  expect(refused!.headers.get("Set-Cookie")).toBeNull();
  expect(await refused!.json()).toEqual({ error: { message: expect.stringContaining("wait a minute") } });
  expect(await rows()).toEqual(before);
}

describe("the sign-in ceremony's limits", () => {
  it("options: past ten a minute from one visitor, 429 and no challenge stored", async () => {
    const ip = visitorIp();
    const send = () => postFrom(ip, "/sign-in/options", { kind: "authenticate" });
    const first = await burst(send, 10);
    expect(first.admitted).toBe(10);
    const before = await rows();
    await expectRefusedQuietly(await send(), before);
  });

  it("verify: past ten a minute from one visitor, 429, and the pending challenge is not taken", async () => {
    const ip = visitorIp();
    const junk = { kind: "authenticate", credential: { id: "x" } };
    const { admitted } = await burst(() => postFrom(ip, "/sign-in/verify", junk), 10);
    expect(admitted).toBe(10);
    const attempt = await pendingAttempt("/sign-in/options", { kind: "register", name: uniqueName("l") });
    const before = await rows();
    const refused = await postFrom(ip, "/sign-in/verify", { kind: "register", credential: {} }, attempt);
    await expectRefusedQuietly(refused, before);
  });

  it("counts options and verifications apart: ten options a minute leave the ten verifications", async () => {
    const ip = visitorIp();
    const options = () => postFrom(ip, "/sign-in/options", { kind: "authenticate" });
    expect((await burst(options, 11)).admitted).toBe(10);
    const verify = () => postFrom(ip, "/sign-in/verify", { kind: "authenticate" });
    expect((await burst(verify, 11)).admitted).toBe(10);
  });

  it("counts a network (an IPv6 /48) as four visitors, however many /64s it uses", async () => {
    const net = `2001:db8:${hex()}`;
    let admitted = 0;
    for (let subnet = 1; subnet <= 5; subnet++) {
      const ip = `${net}:${subnet}::1`;
      admitted += (await burst(() => postFrom(ip, "/sign-in/verify", { kind: "authenticate" }), 11)).admitted;
    }
    expect(admitted).toBe(40);
  });
});

describe("the account's passkey ceremonies' limits", () => {
  it("options: past ten a minute, 429 and no challenge stored", async () => {
    const visitor = await signUp(uniqueName("limited"));
    const ip = visitorIp();
    const send = () => postFrom(ip, "/account/passkeys/options", { kind: "register" }, visitor.cookie);
    const { admitted } = await burst(send, 10);
    expect(admitted).toBe(10);
    const before = await rows();
    await expectRefusedQuietly(await send(), before);
  });

  it("verify: past ten a minute, 429, nothing taken or stored", async () => {
    const visitor = await signUp(uniqueName("limited"));
    const ip = visitorIp();
    const junk = { kind: "register", credential: { id: "x" } };
    const { admitted } = await burst(
      () => postFrom(ip, "/account/passkeys/verify", junk, visitor.cookie),
      10,
    );
    expect(admitted).toBe(10);
    const before = await rows();
    const refused = await postFrom(ip, "/account/passkeys/verify", junk, visitor.cookie);
    await expectRefusedQuietly(refused, before);
  });
});
