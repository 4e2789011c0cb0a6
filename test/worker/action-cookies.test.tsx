// The loaders that answer with an action see the cookies it set, as the browser will hold them:
// with JavaScript (the revalidated page in the action's JSON) and without (a refused form's page).
import { describe, expect, it } from "vitest";
import { page, type RouteModule } from "../../src/shared/route-module";
import { data } from "../../src/shared/answers";
import { invalid } from "../../src/shared/invalid";
import { getCookie } from "../../src/shared/cookies";
import type { Middleware } from "../../src/shared/middleware";
import { recordedApp } from "./apps";

const themeOf = (request: Request) => getCookie(request, "theme") ?? "none";

const settings: RouteModule = {
  default: ({ data }: { data: { theme: string; other: string } }) => <p>{`Theme: ${data.theme}`}</p>,
  title: "Settings",
  loader: ({ request }) => ({ theme: themeOf(request), other: getCookie(request, "other") ?? "none" }),
  actions: {
    save: () => data({ saved: true }, { headers: { "Set-Cookie": "theme=dark; Path=/; HttpOnly" } }),
    clear: () => data({ cleared: true }, { headers: { "Set-Cookie": "theme=; Max-Age=0; Path=/" } }),
    expire: () =>
      data(null, { headers: { "Set-Cookie": "theme=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/" } }),
    elsewhere: () => data(null, { headers: { "Set-Cookie": "theme=admin; Path=/admin" } }),
    refuse: () => invalid({ theme: "Pick another" }, { headers: { "Set-Cookie": "theme=light; Path=/" } }),
  },
};

/** A middleware that sets a cookie on every answer below it (a session's slid expiry, say). */
const stamp: Middleware = async function stamp({ headers }, next) {
  headers.append("Set-Cookie", "other=stamped; Path=/");
  return next();
};

const { send } = recordedApp([
  page("/settings", async () => settings),
  page("/stamped", async () => ({ ...settings, middleware: [stamp] })),
]);

const script = (action: string, cookie: string, path = "/settings") =>
  send(path, {
    method: "POST",
    headers: { "X-Action": action, "Content-Type": "application/json", Cookie: cookie },
    body: "{}",
  });

const form = (action: string, cookie: string) =>
  send("/settings", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: `_action=${action}`,
  });

const pageData = (body: string) => (JSON.parse(body) as { page: { data: Record<string, string> } }).page.data;

describe("an action's answer, with JavaScript", () => {
  it("revalidates with a cookie the action added", async () => {
    const { response, body } = await script("save", "other=kept");
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toBe("theme=dark; Path=/; HttpOnly");
    expect(pageData(body)).toEqual({ theme: "dark", other: "kept" });
  });

  it("revalidates with a cookie the action replaced", async () => {
    const { body } = await script("save", "theme=light; other=kept");
    expect(pageData(body)).toEqual({ theme: "dark", other: "kept" });
  });

  it("revalidates without a cookie the action removed by Max-Age=0 or a past Expires", async () => {
    expect(pageData((await script("clear", "theme=light; other=kept")).body)).toEqual({
      theme: "none",
      other: "kept",
    });
    expect(pageData((await script("expire", "theme=light")).body)).toMatchObject({ theme: "none" });
  });

  it("revalidates with the cookies its middleware set too", async () => {
    const { body } = await script("save", "other=old", "/stamped");
    expect(pageData(body)).toEqual({ theme: "dark", other: "stamped" });
  });

  it("does not see a cookie set for another path, which the browser would not send here", async () => {
    expect(pageData((await script("elsewhere", "theme=light")).body)).toMatchObject({ theme: "light" });
  });
});

describe("an action's answer, without JavaScript", () => {
  it("renders a refused form's page with the cookie the action set", async () => {
    const { response, body } = await form("refuse", "theme=dark");
    expect(response.status).toBe(422);
    expect(response.headers.get("Set-Cookie")).toBe("theme=light; Path=/");
    expect(body).toContain("Theme: light");
  });
});
