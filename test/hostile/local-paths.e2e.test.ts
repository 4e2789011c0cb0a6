// A request target that names another host, under the local servers (`npm run preview`, `npm run
// dev`): Node hands `//evil.example/path` (and `http://evil.example/path`) on as it came, and a URL
// built from it takes evil.example as the request's host, so a cross-host post would pass the
// same-site rule and canonical URLs and cache keys would name that host. Refused instead.
import { describe, expect, inject, it } from "vitest";
import { rawRequest } from "./raw-http";

const localServers = {
  "npm run preview": () => inject("baseURL"),
  "npm run dev": () => inject("devURL"),
};

describe.each(Object.entries(localServers))("a request target naming another host under %s", (_, url) => {
  it.each([
    "//evil.example/",
    "//evil.example/guestbook",
    "///evil.example/",
    "/\\evil.example/",
    "http://evil.example/",
  ])("answers GET %s 400, naming no other host", async (path) => {
    const answer = await rawRequest(url(), { method: "GET", path, timeoutMs: 10_000 });
    expect(answer.status).toBe(400);
    expect(answer.body).not.toContain("evil.example");
    expect(JSON.stringify(answer.headers)).not.toContain("evil.example");
  });

  it("refuses a post from that host to //evil.example/guestbook, and stores nothing", async () => {
    const message = `cross-host ${crypto.randomUUID()}`;
    const fields = { _action: "sign", _key: crypto.randomUUID(), name: "Mallory", message };
    const body = new TextEncoder().encode(new URLSearchParams(fields).toString());
    const answer = await rawRequest(url(), {
      method: "POST",
      path: "//evil.example/guestbook",
      headers: {
        Origin: "http://evil.example",
        "Content-Type": "application/x-www-form-urlencoded",
        "Sec-Fetch-Site": "same-origin",
      },
      body,
      timeoutMs: 10_000,
    });
    expect(answer.status).toBe(400);
    const page = await rawRequest(url(), { method: "GET", path: "/guestbook", timeoutMs: 10_000 });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(message);
  });

  it("still answers a path with a slash inside it, and the next request", async () => {
    const inside = await rawRequest(url(), { method: "GET", path: "/guestbook//x", timeoutMs: 10_000 });
    expect(inside.status).toBe(404);
    const home = await rawRequest(url(), { method: "GET", path: "/", timeoutMs: 10_000 });
    expect(home.status).toBe(200);
  });
});
