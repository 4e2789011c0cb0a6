// Refused request bodies against the local servers (`npm run preview`, `npm run dev`), over raw
// sockets: each refusal is answered, and the next request on a new connection is answered too
// (nothing is left waiting on the rest).
import { describe, expect, inject, it } from "vitest";
import { rawRequest, type RawRequest } from "./raw-http";
import { gzipBomb } from "./gzip-bomb";
import { processTree } from "./server-processes";

const KIB = 1024;
const baseURL = inject("baseURL");
const ingestHost = new URL(inject("ingestURL")).host;
const dsnFor = (project: number) => `http://publickey@${ingestHost}/${project}`;
/** Its own visitor IP per request, so the relay's per-IP limit never answers instead. */
const visitor = () => ({
  "CF-Connecting-IP": `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
});

/** `first` as the opening line of a body padded with "x" (no further newline) to `size` bytes. */
function paddedBody(first: string, size: number): Uint8Array {
  const body = Buffer.alloc(size, "x");
  body.write(`${first}\n`);
  return body;
}

const sameOrigin = { Origin: baseURL, "Sec-Fetch-Site": "same-origin" };

interface Case {
  request: RawRequest;
  status: number;
  /** What the next request (on a new connection) is, and what it answers. */
  next: { path: string; status: number };
}

const refusedWithinLimit: Record<string, Case> = {
  "a relay envelope whose header line is 70 KiB": {
    request: {
      method: "POST",
      path: "/monitoring",
      headers: { "Content-Type": "text/plain", ...visitor() },
      body: paddedBody(JSON.stringify({ dsn: dsnFor(1), pad: "x".repeat(70 * KIB) }), 80 * KIB),
    },
    status: 400,
    next: { path: "/monitoring", status: 405 },
  },
  "a 900 KiB relay envelope whose header line is not JSON": {
    request: {
      method: "POST",
      path: "/monitoring",
      headers: { "Content-Type": "text/plain", ...visitor() },
      body: paddedBody("not json", 900 * KIB),
    },
    status: 400,
    next: { path: "/monitoring", status: 405 },
  },
  "a 900 KiB relay envelope for a project that is not allowed": {
    request: {
      method: "POST",
      path: "/monitoring",
      headers: { "Content-Type": "application/x-sentry-envelope", ...visitor() },
      body: paddedBody(JSON.stringify({ dsn: dsnFor(2) }), 900 * KIB),
    },
    status: 403,
    next: { path: "/monitoring", status: 405 },
  },
  "a 900 KiB text/plain action body": {
    request: {
      method: "POST",
      path: "/guestbook",
      headers: { "Content-Type": "text/plain", ...sameOrigin },
      body: paddedBody("", 900 * KIB),
    },
    status: 415,
    next: { path: "/guestbook", status: 200 },
  },
  "a 900 KiB text/plain action body to /": {
    request: {
      method: "POST",
      path: "/",
      headers: { "Content-Type": "text/plain", ...sameOrigin },
      body: paddedBody("", 900 * KIB),
    },
    status: 415,
    next: { path: "/", status: 200 },
  },
  "a 900 KiB cross-site form post": {
    request: {
      method: "POST",
      path: "/guestbook",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: "https://elsewhere.example",
        "Sec-Fetch-Site": "cross-site",
      },
      body: paddedBody("name=x&message=", 900 * KIB),
    },
    status: 403,
    next: { path: "/guestbook", status: 200 },
  },
  "a 900 KiB JSON post naming an unknown action": {
    request: {
      method: "POST",
      path: "/guestbook",
      headers: { "Content-Type": "application/json", "X-Action": "no-such-action", ...sameOrigin },
      body: paddedBody("", 900 * KIB),
    },
    status: 404,
    next: { path: "/guestbook", status: 200 },
  },
};

/** A POST that declares 2 MiB and sends 64 KiB of it, then waits with the connection open. */
function declaresTwoMiB(path: string, headers: Record<string, string>): RawRequest {
  return {
    method: "POST",
    path,
    headers: { ...headers, "Content-Length": 2 * 1024 * KIB },
    body: paddedBody("", 64 * KIB),
  };
}

const declaredOverLimit: Record<string, Case> = {
  "a relay envelope": {
    request: declaresTwoMiB("/monitoring", { "Content-Type": "text/plain", ...visitor() }),
    status: 413,
    next: { path: "/monitoring", status: 405 },
  },
  "an action body": {
    request: declaresTwoMiB("/guestbook", {
      "Content-Type": "application/x-www-form-urlencoded",
      ...sameOrigin,
    }),
    status: 413,
    next: { path: "/guestbook", status: 200 },
  },
  "an action body to /": {
    request: declaresTwoMiB("/", { "Content-Type": "application/x-www-form-urlencoded", ...sameOrigin }),
    status: 413,
    next: { path: "/", status: 200 },
  },
  "an action body from the client script": {
    request: declaresTwoMiB("/guestbook", {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Action": "sign",
      ...sameOrigin,
    }),
    status: 413,
    next: { path: "/guestbook", status: 200 },
  },
};

async function expectNextAnswered(next: Case["next"]) {
  const answer = await rawRequest(baseURL, { method: "GET", path: next.path, timeoutMs: 5_000 });
  expect(answer.status, `GET ${next.path} on a new connection`).toBe(next.status);
  expect(answer.complete, `GET ${next.path} answered in full`).toBe(true);
}

describe("a refused body within the size limit", () => {
  it.each(Object.entries(refusedWithinLimit))(
    "is answered (%s), and the next request on a new connection is answered",
    async (_, { request, status, next }) => {
      const answer = await rawRequest(baseURL, request);
      expect(answer.status).toBe(status);
      expect(answer.complete).toBe(true);
      await expectNextAnswered(next);
    },
  );

  it("is answered when it is a gzip envelope that inflates to 900 MiB, and the next request is answered", async () => {
    const answer = await rawRequest(baseURL, {
      method: "POST",
      path: "/monitoring",
      headers: { "Content-Type": "text/plain", "Content-Encoding": "gzip", ...visitor() },
      body: await gzipBomb(),
    });
    expect(answer.status).toBe(400);
    expect(answer.complete).toBe(true);
    await expectNextAnswered({ path: "/", status: 200 });
  });
});

describe("a body declared over the 1 MiB limit", () => {
  it.each(Object.entries(declaredOverLimit))(
    "is answered 413 before the rest arrives (%s), and the next request on a new connection is answered",
    async (_, { request, status, next }) => {
      // Only the head is awaited: the end of the answer waits for the rest of the body, which the
      // local server reads behind it (docs/decisions.md, "Refused bodies").
      const answer = await rawRequest(baseURL, { ...request, timeoutMs: 3_000 });
      expect(answer.status).toBe(status);
      expect(answer.headMs).toBeLessThan(2_000);
      await expectNextAnswered(next);
    },
  );
});

/** Two MiB of form body: more than the 1 MiB limit, sent in full. */
const TWO_MIB = 2 * 1024 * KIB;
const boundary = "verge-refused-body";
const overLimitBodies: Record<string, (base: string) => RawRequest> = {
  "a 2 MiB urlencoded form post": (base) => ({
    method: "POST",
    path: "/guestbook",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: base,
      "Sec-Fetch-Site": "same-origin",
    },
    body: paddedBody("name=x&message=", TWO_MIB),
  }),
  "a 2 MiB multipart form post": (base) => ({
    method: "POST",
    path: "/guestbook",
    headers: {
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      Origin: base,
      "Sec-Fetch-Site": "same-origin",
    },
    body: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\n`),
      Buffer.alloc(TWO_MIB, "x"),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  }),
  "a 2 MiB chunked JSON action post": (base) => ({
    method: "POST",
    path: "/guestbook",
    headers: {
      "Content-Type": "application/json",
      "X-Action": "sign",
      Origin: base,
      "Sec-Fetch-Site": "same-origin",
    },
    body: paddedBody('{"message":"', TWO_MIB),
    chunked: true,
  }),
};

// Each local server hands the body to workerd over a connection of its own, which is where a
// body cut off mid-way used to end as a 500 for that request and the next (under wrangler dev:
// a 503 "restarted mid-request", or wrangler exiting).
const localServers = {
  "npm run preview": { url: () => inject("baseURL"), pid: () => inject("serverPids").preview },
  "npm run dev": { url: () => inject("devURL"), pid: () => inject("serverPids").dev },
};

describe.each(Object.entries(localServers))("a body over the 1 MiB limit, under %s", (_, server) => {
  /** `request` with a concurrent GET /, and the server's processes before and after both. */
  async function refusedBesideAGet(request: RawRequest) {
    const before = processTree(server.pid());
    const [refused, other] = await Promise.all([
      rawRequest(server.url(), { ...request, timeoutMs: 2_000 }),
      rawRequest(server.url(), { method: "GET", path: "/", timeoutMs: 5_000 }),
    ]);
    // A refusal's log line and any restart show up a moment later: one more request settles them.
    const next = await rawRequest(server.url(), { method: "GET", path: "/", timeoutMs: 5_000 });
    console.log(
      `${request.method} ${request.path}: 413 head at ${refused.headMs} ms, complete at ${refused.ms} ms`,
    );
    return { refused, other, next, before, after: processTree(server.pid()) };
  }

  it.each(Object.entries(overLimitBodies))(
    "answers %s with a complete 413, while a concurrent GET / answers 200, and nothing restarts",
    async (_, request) => {
      const { refused, other, next, before, after } = await refusedBesideAGet(request(server.url()));
      expect(refused.status).toBe(413);
      expect(refused.complete).toBe(true);
      expect([other.status, other.complete]).toEqual([200, true]);
      expect(next.status).toBe(200);
      expect(before.length).toBeGreaterThan(1);
      expect(after).toEqual(before);
    },
  );

  it.each(Object.entries(overLimitBodies))(
    "answers %s with 413 within a second to a client that stops sending then, whole, and closes the connection within a second",
    async (_, request) => {
      const answer = await rawRequest(server.url(), {
        ...request(server.url()),
        stopSendingOnHead: true,
        timeoutMs: 5_000,
      });
      expect(answer.status).toBe(413);
      expect(answer.headMs).toBeLessThan(1_000);
      expect(answer.complete, "the whole answer came").toBe(true);
      expect(answer.body).toContain("too large");
      expect(
        answer.closedMs! - answer.headMs!,
        "the connection ended within a second of the head",
      ).toBeLessThan(1_000);
      const home = await rawRequest(server.url(), { method: "GET", path: "/", timeoutMs: 5_000 });
      expect([home.status, home.complete]).toEqual([200, true]);
    },
  );

  it("answers 413 to a post declaring 2 MiB while only 64 KiB of it has come, and nothing restarts", async () => {
    const base = server.url();
    const { refused, other, next, before, after } = await refusedBesideAGet(
      declaresTwoMiB("/guestbook", {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: base,
        "Sec-Fetch-Site": "same-origin",
      }),
    );
    // The head is what the sender can wait for: the end of the answer waits for the rest of the
    // body, or for the sender's pause (docs/decisions.md, "Refused bodies").
    expect(refused.status).toBe(413);
    expect([other.status, other.complete]).toEqual([200, true]);
    expect(next.status).toBe(200);
    expect(before.length).toBeGreaterThan(1);
    expect(after).toEqual(before);
  });
});
