// A cached page with a per-visitor loader answers through the same header and redirect steps as a
// whole page: its shared loader's headers go out, a loader redirect keeps its own headers, and an
// answer that sets a cookie is never stored as the page's shell.
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { Await } from "../../src/shared/await";
import { data } from "../../src/shared/answers";
import { redirect } from "../../src/shared/redirect";
import { page, type PageProps, type RouteModule } from "../../src/shared/route-module";
import { recordedApp } from "./apps";

const visitorLoader = () => ({ name: "Ada" });

function Greeting({ visitor }: PageProps<unknown, string, unknown, typeof visitorLoader>) {
  return (
    <Suspense fallback={<p>Finding you…</p>}>
      <Await resolve={visitor}>{({ name }) => <p>{`Hello, ${name}`}</p>}</Await>
    </Suspense>
  );
}

const module = (loader: RouteModule["loader"]) => async (): Promise<RouteModule> => ({
  default: Greeting,
  title: "Greeting",
  loader,
  visitorLoader,
  cache: { maxAge: 60, query: ["test"] },
});

const routes = [
  page(
    "/tagged",
    module(() => data({ rows: 3 }, { headers: { "X-Rows": "3" } })),
  ),
  page(
    "/cookie",
    module(() => data({ rows: 3 }, { headers: { "Set-Cookie": "seen=1; Path=/" } })),
  ),
  page(
    "/moved",
    module(() => redirect("/elsewhere", { headers: { "Set-Cookie": "moved=1; Path=/", "X-Moved": "yes" } })),
  ),
];

const { send } = recordedApp(routes);
const fresh = () => `test=${crypto.randomUUID()}`;

describe("a cached page with a per-visitor loader", () => {
  it("sends its shared loader's headers with the page it renders", async () => {
    const { response, body, lines } = await send(`/tagged?${fresh()}`);
    expect(lines[0]).toMatchObject({ cache: "miss", status: 200 });
    expect(body).toContain("Hello, Ada");
    expect(response.headers.get("X-Rows")).toBe("3");
  });

  it("sends a cookie its shared loader sets to that visitor only, and stores no shell of it", async () => {
    const path = `/cookie?${fresh()}`;
    const first = await send(path);
    expect(first.response.headers.get("Set-Cookie")).toBe("seen=1; Path=/");
    expect(first.lines[0]).toMatchObject({ cacheSkip: "set-cookie" });
    const second = await send(path);
    // Rendered again, not the first visitor's answer: nothing was stored.
    expect(second.lines[0]).toMatchObject({ cache: "miss" });
  });

  it("answers its loader's redirect as a whole page's, with the redirect's own headers", async () => {
    const { response } = await send(`/moved?${fresh()}`);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/elsewhere");
    expect(response.headers.get("Set-Cookie")).toBe("moved=1; Path=/");
    expect(response.headers.get("X-Moved")).toBe("yes");
  });
});
