// Refused request bodies inside workerd, without a local server in front: what the app
// itself does with a body it refuses. Within 1 MiB it is read to its end before the answer
// leaves; declared over 1 MiB it is cancelled unread; found over 1 MiB, it is cancelled there.
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../src/worker";
import { dsnFor, relay } from "../worker/relay-support";
import { ORIGIN } from "../worker/action-helpers";

const KIB = 1024;
const MIB = 1024 * KIB;
const PROJECT = 61;
const vars = { SENTRY_DSN: dsnFor(PROJECT) };

/** A body of `size` bytes ("x" after `first`), pulled 16 KiB at a time, that records how far it was read. */
function watchedBody(size: number, first = "") {
  const state = { pulled: 0, cancelled: false };
  const head = new TextEncoder().encode(first);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled >= size) return controller.close();
        const chunk = new Uint8Array(Math.min(16 * KIB, size - state.pulled)).fill(0x78);
        if (state.pulled === 0) chunk.set(head.subarray(0, chunk.byteLength));
        state.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

async function postAction(
  path: string,
  headers: Record<string, string>,
  body: ReadableStream<Uint8Array>,
  method = "POST",
  bindings: Env = env,
) {
  const request = new Request(`${ORIGIN}${path}`, {
    method,
    headers,
    body,
    duplex: "half",
  } as RequestInit);
  const ctx = createExecutionContext();
  const response = await worker.fetch!(
    request as Request<unknown, IncomingRequestCfProperties>,
    bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
}

const sameOrigin = { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" };

describe("a refused relay envelope", () => {
  it("is read to its end before the 403 for another project's DSN", async () => {
    const { stream, state } = watchedBody(900 * KIB, `${JSON.stringify({ dsn: dsnFor(PROJECT + 1) })}\n`);
    const { response } = await relay({ body: stream, duplex: "half" }, vars);
    expect(response.status).toBe(403);
    expect(state.pulled).toBe(900 * KIB);
  });

  it("is read to its end before the 400 for a header line over 64 KiB", async () => {
    const { stream, state } = watchedBody(900 * KIB);
    const { response } = await relay({ body: stream, duplex: "half" }, vars);
    expect(response.status).toBe(400);
    expect(state.pulled).toBe(900 * KIB);
  });

  it("is cancelled unread, with 413, when it declares more than 1 MiB", async () => {
    const { stream, state } = watchedBody(2 * MIB);
    const { response } = await relay(
      { body: stream, duplex: "half", headers: { "Content-Length": String(2 * MIB) } },
      vars,
    );
    expect(response.status).toBe(413);
    expect(state).toEqual({ pulled: 0, cancelled: true });
  });

  it("is answered 413, read no further than 1 MiB, when a refused one streams past it", async () => {
    const { stream, state } = watchedBody(2 * MIB, `${JSON.stringify({ dsn: dsnFor(PROJECT + 1) })}\n`);
    const { response } = await relay({ body: stream, duplex: "half" }, vars);
    expect(response.status).toBe(413);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(MIB + 16 * KIB);
  });
});

describe("a refused action body", () => {
  it.each([
    ["415 for text/plain", 415, { "Content-Type": "text/plain", ...sameOrigin }],
    [
      "403 for a cross-site post",
      403,
      { "Content-Type": "application/x-www-form-urlencoded", Origin: "https://elsewhere.example" },
    ],
    [
      "404 for an unknown action named in X-Action",
      404,
      { "Content-Type": "application/json", "X-Action": "no-such-action", ...sameOrigin },
    ],
  ])("is read to its end before the %s", async (_, status, headers) => {
    const { stream, state } = watchedBody(900 * KIB);
    const response = await postAction("/guestbook", headers, stream);
    expect(response.status).toBe(status);
    expect(state.pulled).toBe(900 * KIB);
  });

  it("is cancelled unread, with 413, when it declares more than 1 MiB", async () => {
    const { stream, state } = watchedBody(2 * MIB);
    const response = await postAction(
      "/guestbook",
      {
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Length": String(2 * MIB),
        ...sameOrigin,
      },
      stream,
    );
    expect(response.status).toBe(413);
    expect(state).toEqual({ pulled: 0, cancelled: true });
  });

  it("is answered 413, read no further than 1 MiB, when a refused one streams past it", async () => {
    const { stream, state } = watchedBody(2 * MIB);
    const response = await postAction("/guestbook", { "Content-Type": "text/plain", ...sameOrigin }, stream);
    expect(response.status).toBe(413);
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThanOrEqual(MIB + 16 * KIB);
  });
});

describe("a body sent with a method no page takes", () => {
  it("is read to its end before the 405", async () => {
    const { stream, state } = watchedBody(900 * KIB);
    const response = await postAction("/guestbook", { "Content-Type": "text/plain" }, stream, "PUT");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(state.pulled).toBe(900 * KIB);
  });

  it("is cancelled unread, with 413, when it declares more than 1 MiB", async () => {
    const { stream, state } = watchedBody(2 * MIB);
    const headers = { "Content-Type": "text/plain", "Content-Length": String(2 * MIB) };
    const response = await postAction("/guestbook", headers, stream, "DELETE");
    expect(response.status).toBe(413);
    expect(state).toEqual({ pulled: 0, cancelled: true });
  });
});

describe("a body over the limit under npm run dev or npm run preview (LOCAL_SERVER), which stream it on", () => {
  const local = { ...env, LOCAL_SERVER: "1" };
  const form = { "Content-Type": "application/x-www-form-urlencoded", ...sameOrigin };

  it("is answered 413 at once, and read to its end behind the answer, when it declares more than 1 MiB", async () => {
    const { stream, state } = watchedBody(2 * MIB);
    const response = await postAction(
      "/guestbook",
      { ...form, "Content-Length": String(2 * MIB) },
      stream,
      "POST",
      local,
    );
    expect(response.status).toBe(413);
    expect(state.pulled).toBeLessThan(2 * MIB);
    await response.text();
    expect(state).toEqual({ pulled: 2 * MIB, cancelled: false });
  });

  it("is answered 413 and read to its end behind the answer when it streams past 1 MiB", async () => {
    const { stream, state } = watchedBody(2 * MIB);
    const response = await postAction("/guestbook", form, stream, "POST", local);
    expect(response.status).toBe(413);
    await response.text();
    expect(state).toEqual({ pulled: 2 * MIB, cancelled: false });
  });

  it("is cut off after all when the sender pauses, and the answer then ends", async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(64 * KIB).fill(0x78)); // and nothing more
      },
    });
    const response = await postAction(
      "/guestbook",
      { ...form, "Content-Length": String(2 * MIB) },
      stalled,
      "POST",
      local,
    );
    expect(response.status).toBe(413);
    expect(await response.text()).toContain("too large");
  });
});
