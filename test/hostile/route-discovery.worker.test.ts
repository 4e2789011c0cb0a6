// What route discovery (src/server/route-discovery.ts) refuses, with a clear 4xx and before any
// route is matched or module loaded: another method, a missing build, no path or too many, a path
// that is no pathname or is too long. The URL itself is capped before (414, dispatch.ts).
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { manifest, recordedApp } from "../worker/apps";

const { send } = recordedApp(app.routes);
const query = (pairs: [string, string][]) => `/__verge/routes?${new URLSearchParams(pairs)}`;
const build: [string, string] = ["build", manifest.build];
const message = (body: string) => (JSON.parse(body) as { error: { message: string } }).error.message;

describe("a route discovery request", () => {
  it("is refused 405 for any method but GET and HEAD, with Allow", async () => {
    const { response, body } = await send(query([build, ["path", "/"]]), { method: "POST", body: "x" });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, HEAD");
    expect(message(body)).toBe("Method Not Allowed");
    const head = await send(query([build, ["path", "/"]]), { method: "HEAD" });
    expect(head.response.status).toBe(200);
  });

  it("is refused 400 without a build, or without a path", async () => {
    const noBuild = await send(query([["path", "/guestbook"]]));
    expect(noBuild.response.status).toBe(400);
    expect(message(noBuild.body)).toContain("?build=");
    const noPath = await send(query([build]));
    expect(noPath.response.status).toBe(400);
    expect(message(noPath.body)).toContain("1 to 16 paths");
  });

  it("is refused 400 past 16 paths, answering 16 at once", async () => {
    const paths = Array.from({ length: 16 }, (_, i): [string, string] => ["path", `/p${i}`]);
    expect((await send(query([build, ...paths]))).response.status).toBe(200);
    const { response, body } = await send(query([build, ...paths, ["path", "/one-more"]]));
    expect(response.status).toBe(400);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(message(body)).toBe("Ask for 1 to 16 paths: ?path=/a&path=/b.");
  });

  it("is refused 400 for a path that is no pathname or is over 1024 characters", async () => {
    for (const path of ["guestbook", "https://evil.example/", "", `/${"a".repeat(1024)}`]) {
      const { response, body } = await send(query([build, ["path", path]]));
      expect(response.status, path).toBe(400);
      expect(message(body)).toBe("Each path starts with / and has at most 1024 characters.");
    }
  });

  it("answers odd but well-formed paths as no route, and a URL over 8 KiB 414", async () => {
    const odd = ["//guestbook", "/%E0%A4%A", "/guestbook?x=1", "/../guestbook", "/a/".repeat(300)];
    const { response, body } = await send(query([build, ...odd.map((p): [string, string] => ["path", p])]));
    expect(response.status).toBe(200);
    expect(
      Object.values((JSON.parse(body) as { routes: object }).routes).every((line) => line === null),
    ).toBe(true);
    const huge = await send(query([build, ["path", `/${"a".repeat(9000)}`]]));
    expect(huge.response.status).toBe(414);
  });
});
