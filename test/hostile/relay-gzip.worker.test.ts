// Gzip envelopes at the relay, inside workerd: the header line is read through a bounded
// inflater, which stops once the line, or the gzip spent on it, passes 64 KiB.
import { describe, expect, it } from "vitest";
import { base64, dsnFor, envelope, received, relay } from "../worker/relay-support";

const KIB = 1024;

async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const text = (value: string) => new TextEncoder().encode(value);

const sha256 = async (bytes: Uint8Array<ArrayBuffer>) =>
  base64(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));

/** The same gzip with a file name of `length` bytes in its header (gzip's FNAME field). */
function withFileName(gzipped: Uint8Array, length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(gzipped.byteLength + length + 1);
  out.set(gzipped.subarray(0, 10));
  out[3]! |= 0x08;
  out.fill(0x61, 10, 10 + length);
  out.set(gzipped.subarray(10), 10 + length + 1);
  return out;
}

/** `bytes` as one chunk, as a network read may hand over a large body. */
const oneChunk = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

describe("gzip envelopes at the relay", () => {
  it("forwards one whose header line is 60 KiB, unchanged", async () => {
    const dsn = dsnFor(71);
    const header = JSON.stringify({ dsn, pad: crypto.randomUUID().repeat((60 * KIB) / 36) });
    const body = await gzip(text(`${header}\n{"type":"event"}\n{}\n`));
    const { response } = await relay({ body, headers: { "Content-Encoding": "gzip" } }, { SENTRY_DSN: dsn });
    expect(response.status).toBe(200);
    expect((await received(71))[0]!.raw).toBe(base64(body));
  });

  it("forwards one that arrives as a single 512 KiB chunk, unchanged", async () => {
    const dsn = dsnFor(72);
    const noise = new Uint8Array(512 * KIB);
    // getRandomValues fills at most 64 KiB a call.
    for (let at = 0; at < noise.byteLength; at += 64 * KIB)
      crypto.getRandomValues(noise.subarray(at, at + 64 * KIB));
    const head = text(envelope(dsn, `{"type":"attachment","length":${noise.byteLength}}\n`));
    const plain = new Uint8Array(head.byteLength + noise.byteLength);
    plain.set(head);
    plain.set(noise, head.byteLength);
    const body = await gzip(plain);
    expect(body.byteLength).toBeGreaterThan(512 * KIB);
    const { response } = await relay(
      { body: oneChunk(body), duplex: "half", headers: { "Content-Encoding": "gzip" } },
      { SENTRY_DSN: dsn },
    );
    expect(response.status).toBe(200);
    const raw = Uint8Array.from(atob((await received(72))[0]!.raw), (c) => c.charCodeAt(0));
    expect(await sha256(raw)).toBe(await sha256(body));
  });

  it("answers 400 to one that spends more than 65 KiB of gzip before its header line", async () => {
    const dsn = dsnFor(73);
    const body = withFileName(await gzip(text(envelope(dsn))), 100 * KIB);
    const { response } = await relay({ body, headers: { "Content-Encoding": "gzip" } }, { SENTRY_DSN: dsn });
    expect(response.status).toBe(400);
    expect(await received(73)).toEqual([]);
  });

  it("answers 400 to one whose header line inflates past 64 KiB", async () => {
    const dsn = dsnFor(74);
    const body = await gzip(text(`${JSON.stringify({ dsn, pad: " ".repeat(8 * 1024 * KIB) })}\n{}\n`));
    const { response } = await relay({ body, headers: { "Content-Encoding": "gzip" } }, { SENTRY_DSN: dsn });
    expect(response.status).toBe(400);
    expect(await received(74)).toEqual([]);
  });
});
