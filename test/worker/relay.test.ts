// The relay refuses what it must not forward, before anything reaches the ingest.
import { describe, expect, it } from "vitest";
import { dsnFor, envelope, randomIp, received, relay } from "./relay-support";
import { awaitFreshWindow, FRESH_WINDOW_TIMEOUT_MS } from "../support/rate-limit";

/** A limit test's own time (30 s) and the wait for a window that cannot roll over during it. */
const LIMIT_TEST_MS = 30_000 + FRESH_WINDOW_TIMEOUT_MS;

const PROJECT = 21;
const vars = { SENTRY_DSN: dsnFor(PROJECT) };

describe("relay refusals", () => {
  it("answers 405 with Allow: POST to other methods", async () => {
    const { response } = await relay({ method: "GET" }, vars);
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });

  it("answers 404 when no SENTRY_DSN is configured", async () => {
    const { response } = await relay({ body: envelope(dsnFor(PROJECT)) }, { SENTRY_DSN: "" });
    expect(response.status).toBe(404);
  });

  it("answers 400 to a header line that is not JSON", async () => {
    const { response } = await relay({ body: "not json\n{}\n{}" }, vars);
    expect(response.status).toBe(400);
  });

  it("answers 400 to an envelope without a dsn", async () => {
    const { response } = await relay(
      { body: `{"event_id":"${"a".repeat(32)}"}\n{"type":"event"}\n{}\n` },
      vars,
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("no dsn");
  });

  it("answers 400 to a header line over 64 KiB", async () => {
    const header = JSON.stringify({ dsn: dsnFor(PROJECT), pad: "x".repeat(70 * 1024) });
    const { response } = await relay({ body: `${header}\n{"type":"event"}\n{}\n` }, vars);
    expect(response.status).toBe(400);
  });

  it("answers 400 to an empty body", async () => {
    const { response } = await relay({}, vars);
    expect(response.status).toBe(400);
  });

  it("answers 403 to a DSN for another host", async () => {
    const { response } = await relay({ body: envelope(dsnFor(PROJECT, "o1.ingest.sentry.io")) }, vars);
    expect(response.status).toBe(403);
  });

  it("answers 403 to a DSN for another project on the same host", async () => {
    const { response } = await relay({ body: envelope(dsnFor(PROJECT + 1)) }, vars);
    expect(response.status).toBe(403);
  });

  it("answers 413 to a 2 MiB envelope that declares its length, without forwarding it", async () => {
    const body = envelope(dsnFor(PROJECT), `{"type":"attachment"}\n${"x".repeat(2 * 1024 * 1024)}\n`);
    const { response, lines } = await relay(
      { body, headers: { "Content-Length": String(body.length) } },
      vars,
    );
    expect(response.status).toBe(413);
    expect(lines[0]).toMatchObject({ kind: "relay", status: 413 });
    expect(await received(PROJECT)).toEqual([]);
  });

  it("answers 413 to a 2 MiB envelope streamed without a length, without forwarding it", async () => {
    const head = new TextEncoder().encode(envelope(dsnFor(PROJECT), '{"type":"attachment"}\n'));
    const chunk = new Uint8Array(64 * 1024).fill(0x78);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent >= 2 * 1024 * 1024) return controller.close();
        controller.enqueue(chunk);
        sent += chunk.byteLength;
      },
    });
    const { response } = await relay({ body, duplex: "half" }, vars);
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(2 * 1024 * 1024);
    expect(await received(PROJECT)).toEqual([]);
  });

  it(
    "answers 429 with Retry-After once one IP sends more than the limit",
    async () => {
      await awaitFreshWindow();
      const ip = randomIp();
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 32; i++) {
        // Another project's DSN: refused (403) after the limit check, so nothing reaches the ingest.
        const { response } = await relay(
          { body: envelope(dsnFor(PROJECT + 1)), headers: { "CF-Connecting-IP": ip } },
          vars,
        );
        statuses.push(response.status);
        last = response;
      }
      expect(statuses.slice(0, 30)).toEqual(Array(30).fill(403));
      expect(statuses.slice(30)).toEqual([429, 429]);
      expect(last!.headers.get("Retry-After")).toBe("60");
      const other = await relay({ body: envelope(dsnFor(PROJECT + 1)) }, vars);
      expect(other.response.status).toBe(403);
    },
    LIMIT_TEST_MS,
  );

  it(
    "counts an IPv6 /64 as one visitor: its 31st envelope from a new address is refused",
    async () => {
      await awaitFreshWindow();
      const network = `fd01:${randomIp().split(".").slice(1).join(":")}`;
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        const ip = `${network}::${(i + 1).toString(16)}`;
        const { response } = await relay(
          { body: envelope(dsnFor(PROJECT + 1)), headers: { "CF-Connecting-IP": ip } },
          vars,
        );
        statuses.push(response.status);
      }
      expect(statuses).toEqual([...Array(30).fill(403), 429]);
      const otherNetwork = await relay(
        { body: envelope(dsnFor(PROJECT + 1)), headers: { "CF-Connecting-IP": `${network}1::1` } },
        vars,
      );
      expect(otherNetwork.response.status).toBe(403);
    },
    LIMIT_TEST_MS,
  );

  it("refuses to relay without its limiter binding, and says why in the log", async () => {
    const { response, lines } = await relay(
      { body: envelope(dsnFor(PROJECT)) },
      { ...vars, RELAY_LIMITER: undefined },
    );
    expect(response.status).toBe(500);
    expect(lines[0]).toMatchObject({ kind: "relay", status: 500, level: "error" });
    expect(lines[0]!.message).toContain("RELAY_LIMITER");
    expect(await received(PROJECT)).toEqual([]);
  });
});
