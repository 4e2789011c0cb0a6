// Methods the worker never sees under the local servers (`npm run preview`, `npm run dev`): a
// fetch Request cannot carry TRACE, TRACK or CONNECT, and Node's parser refuses an unknown token.
// Each is answered as the deployed worker answers, never with a 5xx, and the next request too.
import { describe, expect, inject, it } from "vitest";
import { rawRequest } from "./raw-http";

const localServers = {
  "npm run preview": () => inject("baseURL"),
  "npm run dev": () => inject("devURL"),
};

describe.each(Object.entries(localServers))("an odd method under %s", (_, url) => {
  it("answers TRACE 405 with Allow", async () => {
    const answer = await rawRequest(url(), { method: "TRACE", path: "/", timeoutMs: 5_000 });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD, POST");
    expect(answer.complete).toBe(true);
  });

  it("answers CONNECT 405 with Allow", async () => {
    const { host } = new URL(url());
    const answer = await rawRequest(url(), { method: "CONNECT", path: host, timeoutMs: 5_000 });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe("GET, HEAD, POST");
  });

  it.each(["TRACK", "FROBNICATE"])("answers %s, a method Node does not know, 501", async (method) => {
    const answer = await rawRequest(url(), { method, path: "/", timeoutMs: 5_000 });
    expect(answer.status).toBe(501);
    expect(answer.complete).toBe(true);
  });

  it("still answers a method the worker knows, and the next request", async () => {
    const refused = await rawRequest(url(), { method: "PUT", path: "/", timeoutMs: 5_000 });
    expect(refused.status).toBe(405);
    expect(refused.headers.allow).toBe("GET, HEAD, POST");
    const next = await rawRequest(url(), { method: "GET", path: "/", timeoutMs: 10_000 });
    expect(next.status).toBe(200);
  });
});
