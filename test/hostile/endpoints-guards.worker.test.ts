// What endpoints refuse or keep to one visitor (src/server/endpoints.ts): bodies over 1 MiB, unsafe
// methods from other sites (unless the module says crossSite), and cookies in the edge cache.
import { describe, expect, it } from "vitest";
import { fresh, handled, send } from "../worker/endpoint-app";

describe("an endpoint's body", () => {
  const big = () => new Uint8Array(1024 * 1024 + 1);

  it("is refused 413 when it declares over 1 MiB, before the handler runs", async () => {
    const before = handled.count;
    const { response, body } = await send("/posts-only", {
      method: "POST",
      body: big(),
      headers: { "Content-Length": String(1024 * 1024 + 1) },
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(body)).toEqual({ error: { message: "The body is too large (the limit is 1 MiB)." } });
    expect(handled.count).toBe(before);
  });

  it("is refused 413 when it passes 1 MiB while the handler reads it, without a declared length", async () => {
    const chunk = new Uint8Array(256 * 1024);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Far more than the limit: the rest must never be read.
        if (sent++ < 64) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const { response } = await send("/posts-only", {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(16);
  });

  it("is read whole within 1 MiB", async () => {
    const { response, body } = await send("/posts-only", {
      method: "POST",
      body: new Uint8Array(1024 * 1024),
    });
    expect(response.status).toBe(200);
    expect(body).toBe(String(1024 * 1024));
  });
});

describe("an endpoint's unsafe methods", () => {
  it("are refused 403 from another site, before the handler runs", async () => {
    const before = handled.count;
    const { response, lines } = await send("/things/7", {
      method: "POST",
      body: "x",
      headers: { Origin: "https://evil.example" },
    });
    expect(response.status).toBe(403);
    expect(lines[0]).toMatchObject({ kind: "endpoint", status: 403 });
    const fetched = await send("/things/7", {
      method: "DELETE",
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    expect(fetched.response.status).toBe(403);
    expect(handled.count).toBe(before);
  });

  it("are taken from the site itself and from clients that send neither header", async () => {
    const same = await send("/things/7", {
      method: "POST",
      body: "a",
      headers: { Origin: "http://localhost" },
    });
    expect(same.response.status).toBe(201);
    expect((await send("/things/7", { method: "POST", body: "b" })).response.status).toBe(201);
  });

  it("are taken from another site when the module says crossSite (a webhook)", async () => {
    const { response, body } = await send("/webhook", {
      method: "POST",
      body: "event",
      headers: { Origin: "https://hooks.example", "Sec-Fetch-Site": "cross-site" },
    });
    expect(response.status).toBe(200);
    expect(body).toBe("took event");
  });

  it("GET stays open to other sites", async () => {
    const { response } = await send("/things/7", { headers: { Origin: "https://evil.example" } });
    expect(response.status).toBe(200);
  });
});

describe("an endpoint with `cache` whose answer sets a cookie", () => {
  it("never keeps an answer that sets a cookie: the next visitor gets their own, and the line says why", async () => {
    const path = fresh("/cookie-cached");
    const first = await send(path);
    const cookie = first.response.headers.get("Set-Cookie");
    expect(cookie).toMatch(/^visitor=/);
    expect(first.lines[0]).toMatchObject({ cache: "miss", cacheSkip: "set-cookie" });
    const second = await send(path);
    expect(second.lines[0]!.cache).toBe("miss");
    expect(second.response.headers.get("Set-Cookie")).not.toBe(cookie);
  });
});
