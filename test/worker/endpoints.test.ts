// Endpoints (src/server/endpoints.ts): a route-table line whose module answers each method with a
// Response: methods and Allow, HEAD from GET, failures with a digest, the log line and timings,
// Hono's own middleware, and the edge cache for a GET that exports `cache`.
import { describe, expect, it } from "vitest";
import { basicAuth } from "hono/basic-auth";
import { cors } from "hono/cors";
import { endpoint, type EndpointArgs } from "../../src/shared/endpoint";
import { page } from "../../src/shared/route-module";
import { setCookie } from "../../src/shared/cookies";
import { recordedApp } from "./apps";

let calls = 0;
const fresh = (() => {
  let n = 0;
  return (path: string) => `${path}?test=${Date.now()}-${++n}`;
})();

const { send } = recordedApp([
  page("/page", async () => ({ default: () => null, title: "A page" })),
  endpoint("/things/:id", async () => ({
    GET: ({ params, url }: EndpointArgs<"/things/:id">) =>
      Response.json({ id: params.id, q: url.searchParams.get("q") }),
    POST: async ({ request, params }: EndpointArgs<"/things/:id">) =>
      Response.json({ id: params.id, got: await request.text() }, { status: 201 }),
    DELETE: () => new Response(null, { status: 204 }),
  })),
  endpoint("/posts-only", async () => ({
    POST: async ({ request }: EndpointArgs) => new Response(`${(await request.arrayBuffer()).byteLength}`),
  })),
  endpoint("/fails", async () => ({
    GET: () => {
      throw new Error("secret database password in this message");
    },
  })),
  endpoint("/webhook", async () => ({
    crossSite: true,
    POST: async ({ request }: EndpointArgs) => new Response(`took ${await request.text()}`),
  })),
  endpoint("/counted", async () => ({
    cache: { maxAge: 60, query: ["test", "page"] },
    GET: ({ request, url }: EndpointArgs) =>
      Response.json({
        n: ++calls,
        url: url.href,
        cookie: request.headers.get("Cookie"),
      }),
  })),
  endpoint("/cookie-cached", async () => ({
    cache: { maxAge: 60, query: ["test"] },
    GET: ({ url }: EndpointArgs) =>
      new Response(`for ${url.search}`, {
        headers: { "Set-Cookie": setCookie("visitor", crypto.randomUUID().slice(0, 8)) },
      }),
  })),
  endpoint("/guarded", async () => ({
    use: [cors({ origin: "https://app.example" }), basicAuth({ username: "ops", password: "s3cret" })],
    GET: () => new Response("inside"),
  })),
  endpoint("/page-first", async () => ({ GET: () => new Response("endpoint") })),
]);

describe("an endpoint", () => {
  it("answers each method its module exports, with typed params and the URL", async () => {
    const got = await send("/things/7?q=x");
    expect(got.response.status).toBe(200);
    expect(JSON.parse(got.body)).toEqual({ id: "7", q: "x" });
    const posted = await send("/things/8", { method: "POST", body: "hello" });
    expect(posted.response.status).toBe(201);
    expect(JSON.parse(posted.body)).toEqual({ id: "8", got: "hello" });
    expect((await send("/things/9", { method: "DELETE" })).response.status).toBe(204);
  });

  it("answers another method 405 with the module's methods in Allow, before reading the body", async () => {
    const put = await send("/things/7", { method: "PUT", body: "x" });
    expect(put.response.status).toBe(405);
    expect(put.response.headers.get("Allow")).toBe("GET, HEAD, POST, DELETE, OPTIONS");
    expect(JSON.parse(put.body)).toEqual({ error: { message: "Method Not Allowed" } });
    const get = await send("/posts-only");
    expect(get.response.status).toBe(405);
    expect(get.response.headers.get("Allow")).toBe("POST, OPTIONS");
    expect((await send("/posts-only", { method: "HEAD" })).response.status).toBe(405);
  });

  it("answers HEAD from GET: its status and headers, no body", async () => {
    const head = await send("/things/7", { method: "HEAD" });
    expect(head.response.status).toBe(200);
    expect(head.response.headers.get("Content-Type")).toContain("application/json");
    expect(head.body).toBe("");
  });

  it("answers OPTIONS 204 with Allow when the module does not itself", async () => {
    const options = await send("/things/7", { method: "OPTIONS" });
    expect(options.response.status).toBe(204);
    expect(options.response.headers.get("Allow")).toBe("GET, HEAD, POST, DELETE, OPTIONS");
  });

  it("answers a thrown error 500 with a JSON digest and nothing of the message; logs and reports it", async () => {
    const { response, body, lines, reports } = await send("/fails");
    expect(response.status).toBe(500);
    const answer = JSON.parse(body) as { error: { digest: string } };
    expect(Object.keys(answer)).toEqual(["error"]);
    expect(Object.keys(answer.error)).toEqual(["digest"]);
    expect(answer.error.digest).toMatch(/^[0-9a-z]{8,16}$/);
    expect(body).not.toContain("password");
    expect(lines[0]).toMatchObject({
      kind: "endpoint",
      route: "/fails",
      status: 500,
      level: "error",
      digest: answer.error.digest,
    });
    expect(lines[0]!.message).toContain("secret database password");
    expect(reports.map((report) => report.digest)).toEqual([answer.error.digest]);
  });

  it("writes one log line of kind endpoint, with its route and an endpoint phase in its timings", async () => {
    const { lines, response } = await send("/things/7", {}, { SERVER_TIMING: "1" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ kind: "endpoint", route: "/things/:id", status: 200, method: "GET" });
    expect(Object.keys(lines[0]!.timings)).toEqual(expect.arrayContaining(["match", "endpoint"]));
    expect(response.headers.get("Server-Timing")).toMatch(/(^|, )endpoint;dur=/);
  });

  it("leaves a page above it in the table its path, and other pages pages", async () => {
    const { response, lines } = await send("/page");
    expect(response.headers.get("Content-Type")).toContain("text/html");
    expect(lines[0]).toMatchObject({ kind: "html", route: "/page" });
  });
});

describe("an endpoint's body", () => {
  const big = () => new Uint8Array(1024 * 1024 + 1);

  it("is refused 413 when it declares over 1 MiB, before the handler runs", async () => {
    const { response, body } = await send("/posts-only", { method: "POST", body: big() });
    expect(response.status).toBe(413);
    expect(JSON.parse(body)).toEqual({ error: { message: "The body is too large (the limit is 1 MiB)." } });
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

describe("an endpoint with `cache`", () => {
  it("is answered from the edge cache after its first GET, under its declared query only", async () => {
    const path = fresh("/counted");
    const first = await send(path);
    const second = await send(`${path}&utm_source=x`);
    expect([first.lines[0]!.cache, second.lines[0]!.cache]).toEqual(["miss", "hit"]);
    expect(JSON.parse(second.body)).toEqual(JSON.parse(first.body));
    expect(second.response.headers.get("Content-Type")).toContain("application/json");
  });

  it("hands its handler a request without the visitor's headers", async () => {
    const { body } = await send(fresh("/counted"), { headers: { Cookie: "session=abc" } });
    const seen = JSON.parse(body) as { cookie: string | null; url: string };
    expect(seen.cookie).toBeNull();
    expect(seen.url).not.toContain("utm");
  });

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

describe("an endpoint's Hono middleware (`use`)", () => {
  const auth = { Authorization: `Basic ${btoa("ops:s3cret")}` };

  it("runs before the handler: basic-auth refuses without credentials", async () => {
    const { response, body } = await send("/guarded");
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toContain("Basic");
    expect(body).not.toContain("inside");
  });

  it("lets the handler answer with credentials, and cors adds its headers", async () => {
    const { response, body } = await send("/guarded", {
      headers: { ...auth, Origin: "https://app.example" },
    });
    expect(response.status).toBe(200);
    expect(body).toBe("inside");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
  });

  it("answers a preflight itself (cors), before basic-auth", async () => {
    const { response } = await send("/guarded", {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Methods")).toContain("GET");
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
  });
});
