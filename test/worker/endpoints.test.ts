// Endpoints (src/server/endpoints.ts): a route-table line whose module answers each method with a
// Response: methods and Allow, HEAD from GET, failures with a digest, the log line and timings,
// Hono's own middleware, and the edge cache for a GET that exports `cache`. What they refuse is in
// test/hostile/endpoints-guards.worker.test.ts.
import { describe, expect, it } from "vitest";
import { fresh, send } from "./endpoint-app";

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
