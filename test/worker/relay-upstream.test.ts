// The relay forwards allowed envelopes byte for byte and passes Sentry's answers back.
import { describe, expect, it } from "vitest";
import { base64, control, dsnFor, envelope, received, relay } from "./relay-support";

/** Each test talks to its own project, so ingest modes set for one do not affect another. */
const varsFor = (project: number, extra: Partial<Env> = {}) => ({ SENTRY_DSN: dsnFor(project), ...extra });

async function gzip(text: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** An envelope with a binary attachment holding every byte value, newlines included. */
function binaryEnvelope(project: number): Uint8Array<ArrayBuffer> {
  const bytes = Uint8Array.from({ length: 512 }, (_, i) => i % 256);
  const head = new TextEncoder().encode(
    envelope(dsnFor(project), `{"type":"attachment","length":${bytes.length},"filename":"b.bin"}\n`),
  );
  const body = new Uint8Array(head.length + bytes.length);
  body.set(head);
  body.set(bytes, head.length);
  return body;
}

describe("relay forwarding", () => {
  it("forwards a binary envelope byte for byte without the visitor's IP, and logs one line without the payload", async () => {
    const body = binaryEnvelope(31);
    const { response, lines } = await relay(
      {
        body,
        headers: {
          "Content-Type": "application/x-sentry-envelope",
          "CF-Connecting-IP": "203.0.113.7",
          "Content-Length": String(body.length), // as the browser sends it
        },
      },
      varsFor(31),
    );
    expect(response.status).toBe(200);
    const [got] = await received(31);
    expect(got!.raw).toBe(base64(body));
    // The address goes only when the operator turns it on (test/hostile/relay-ip.worker.test.ts).
    expect(got!.headers["x-sentry-forwarded-for"]).toBeUndefined();
    expect(got!.headers["content-length"]).toBe(String(body.length));
    expect(got!.items.map((item) => item.header.type)).toEqual(["event", "attachment"]);
    const eventId = got!.header.event_id;
    expect(await response.json()).toEqual({ id: eventId });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      kind: "relay",
      status: 200,
      project: "31",
      event_id: eventId,
      bytes: body.length,
      upstream_status: 200,
    });
    expect(JSON.stringify(lines[0])).not.toContain("relay test");
    // The upstream call is a phase of its own on the line.
    expect(Object.keys(lines[0]!.timings as object)).toContain("relay");
  });

  it("forwards a gzip body unchanged, reading its header through decompression", async () => {
    const body = await gzip(binaryEnvelope(32));
    const { response } = await relay({ body, headers: { "Content-Encoding": "gzip" } }, varsFor(32));
    expect(response.status).toBe(200);
    const [got] = await received(32);
    expect(got!.raw).toBe(base64(body));
    expect(got!.headers["content-encoding"]).toBe("gzip");
  });

  it("answers 400 to a gzip body that does not decompress", async () => {
    const { response } = await relay(
      { body: "plainly not gzip\n", headers: { "Content-Encoding": "gzip" } },
      varsFor(32),
    );
    expect(response.status).toBe(400);
  });

  it("forwards to a project in SENTRY_RELAY_ALLOWED_DSNS, at the URL built from that DSN", async () => {
    const vars = varsFor(33, { SENTRY_RELAY_ALLOWED_DSNS: `${dsnFor(99)}, ${dsnFor(34)}` });
    const { response } = await relay({ body: envelope(dsnFor(34)) }, vars);
    expect(response.status).toBe(200);
    expect(await received(34)).toHaveLength(1);
  });

  it("passes a 429 back with Retry-After and X-Sentry-Rate-Limits", async () => {
    await control("mode?mode=rate-limit&project=35");
    const { response, lines } = await relay({ body: envelope(dsnFor(35)) }, varsFor(35));
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("60");
    expect(response.headers.get("X-Sentry-Rate-Limits")).toBe("60::organization");
    expect(lines[0]).toMatchObject({ status: 429, project: "35" });
  });

  it("does not follow an upstream redirect: 502 without a Location", async () => {
    await control("mode?mode=redirect&project=36");
    const before = ((await control("stats")) as { redirectHits: number }).redirectHits;
    const { response } = await relay({ body: envelope(dsnFor(36)) }, varsFor(36));
    expect(response.status).toBe(502);
    expect(response.headers.get("Location")).toBeNull();
    expect(((await control("stats")) as { redirectHits: number }).redirectHits).toBe(before);
  });

  it("answers 504 when the ingest does not answer within the timeout", async () => {
    await control("mode?mode=hang&project=37");
    const started = Date.now();
    const { response } = await relay(
      { body: envelope(dsnFor(37)) },
      varsFor(37, { SENTRY_RELAY_TIMEOUT_MS: "300" }),
    );
    expect(response.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("answers 502 when the ingest is down", async () => {
    await control("mode?mode=down&project=38");
    const { response } = await relay({ body: envelope(dsnFor(38)) }, varsFor(38));
    expect(response.status).toBe(502);
  });
  it("forwards an envelope the site's own pages post, and one from a client without either header", async () => {
    const sameSite = { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" };
    for (const headers of [sameSite, {}]) {
      const { response } = await relay({ body: envelope(dsnFor(39)), headers }, varsFor(39));
      expect(response.status).toBe(200);
    }
    expect(await received(39)).toHaveLength(2);
  });
});
