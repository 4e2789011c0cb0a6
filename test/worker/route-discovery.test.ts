// Route discovery (src/server/route-discovery.ts): the product's table read for the paths the
// browser asks about, each page's and layout's chunk as the build names it, the same answer for
// every visitor and cacheable for the build; and the page's own line embedded in its document.
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import type { RouteLine, RoutesAnswer } from "../../src/shared/protocol";
import { manifest, recordedApp } from "./apps";

const { send } = recordedApp(app.routes);
const BUILD = manifest.build;
const chunk = (module: string) => manifest.modules[module];

const discover = (...paths: string[]) =>
  send(`/__verge/routes?${new URLSearchParams([["build", BUILD], ...paths.map((path) => ["path", path])])}`);

describe("GET /__verge/routes", () => {
  it("answers each path's route line: pattern, kind, the page's chunk and its layouts' chunks", async () => {
    const { response, body, lines } = await discover("/guestbook", "/account/passkeys", "/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    expect(JSON.parse(body)).toEqual({
      build: BUILD,
      routes: {
        "/guestbook": { path: "/guestbook", kind: "page", module: chunk("src/app/pages/guestbook.tsx") },
        "/account/passkeys": {
          path: "/account/passkeys",
          kind: "page",
          module: chunk("src/app/pages/account-passkeys.tsx"),
          layouts: [{ id: "account", params: [], module: chunk("src/app/layouts/account.tsx") }],
        },
        "/robots.txt": { path: "/robots.txt", kind: "endpoint" },
      },
    } satisfies RoutesAnswer);
    expect(chunk("src/app/pages/guestbook.tsx")?.file).toMatch(/^\/assets\/guestbook-[\w-]+\.js$/);
    expect(lines[0]).toMatchObject({ kind: "discovery", route: null, status: 200 });
  });

  it("is the same for everyone and cacheable for a year: its URL names the build", async () => {
    const anonymous = await discover("/errors/loader");
    const signedIn = await send(
      `/__verge/routes?${new URLSearchParams({ build: BUILD, path: "/errors/loader" })}`,
      { headers: { Cookie: "session=whoever" } },
    );
    expect(anonymous.response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(anonymous.response.headers.get("Set-Cookie")).toBeNull();
    expect(anonymous.response.headers.get("Vary")).toBeNull();
    expect(signedIn.body).toBe(anonymous.body);
    const line = (JSON.parse(anonymous.body) as RoutesAnswer).routes["/errors/loader"];
    expect(line?.path).toBe("/errors/loader");
  });

  it("answers null for a path no route matches, and matches params and a trailing slash", async () => {
    const { response, body } = await discover("/no/such/page", "/sign-in/options", "/slow/");
    expect(response.status).toBe(200);
    const { routes } = JSON.parse(body) as RoutesAnswer;
    expect(routes["/no/such/page"]).toBeNull();
    expect(routes["/sign-in/options"]).toEqual({ path: "/sign-in/:step", kind: "endpoint" });
    expect(routes["/slow/"]?.path).toBe("/slow");
  });

  it("answers another build 409, not to be cached: the page then loads in full", async () => {
    const { response, body } = await send("/__verge/routes?build=another&path=/guestbook");
    expect(response.status).toBe(409);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(body).not.toContain("/assets/");
  });
});

describe("a document's embedded page data", () => {
  const embedded = (html: string) =>
    JSON.parse(
      /<script type="application\/json" id="__verge_page"[^>]*>(.*?)<\/script>/s.exec(html)![1]!,
    ) as {
      line?: RouteLine;
    };

  it("carries the page's own route line, and no other page's chunk", async () => {
    const { body } = await send("/errors");
    expect(embedded(body).line).toEqual({
      path: "/errors",
      kind: "page",
      module: chunk("src/app/pages/errors.tsx"),
    });
    expect(body).not.toContain(chunk("src/app/pages/guestbook.tsx")!.file);
  });

  it("carries none on the not-found page", async () => {
    const { response, body } = await send("/no/such/page");
    expect(response.status).toBe(404);
    expect(embedded(body).line).toBeUndefined();
  });
});
