// What no answer may tell a shared cache: a route's public HTML is refused when the app starts, and
// error pages and redirects say no-store.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/server/create-app";
import { app as product } from "../../src/app";
import { manifest, recordedApp } from "./apps";
import { page, type RouteModule } from "../../src/shared/route-module";
import { redirect } from "../../src/shared/redirect";

const module =
  (extra: Partial<RouteModule> = {}) =>
  async (): Promise<RouteModule> => ({
    default: () => <h1>Page</h1>,
    title: "Page",
    ...extra,
  });

describe("a route's Cache-Control toward browsers", () => {
  it("refuses to start with public HTML: every request answers 500 and the log says why", async () => {
    const { send } = recordedApp([
      page("/", module()),
      page("/shared", module({ cacheControl: { html: "public, max-age=60" } })),
    ]);
    for (const path of ["/", "/shared"]) {
      const { response, lines } = await send(path);
      expect(response.status).toBe(500);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expect(lines[0]).toMatchObject({ level: "error", status: 500 });
      expect(lines[0]!.message).toMatch(/\/shared.*public.*nonce/);
    }
  });

  it("refuses s-maxage on HTML too, and public page data", async () => {
    const shared = recordedApp([page("/", module({ cacheControl: { html: "private, s-maxage=60" } }))]);
    expect((await shared.send("/")).response.status).toBe(500);
    const data = recordedApp([page("/", module({ cacheControl: { data: "public, max-age=60" } }))]);
    expect((await data.send("/")).response.status).toBe(500);
  });
});

describe("when the routes are checked", () => {
  /** Two routes, the second public, each noting when its module loads. */
  const counted = () => {
    const loaded: string[] = [];
    const load = (path: string, extra: Partial<RouteModule> = {}) => {
      const made = module(extra);
      return () => (loaded.push(path), made());
    };
    const routes = [
      page("/", load("/")),
      page("/shared", load("/shared", { cacheControl: { html: "public" } })),
    ];
    return { loaded, routes };
  };

  /** The status and logged message of a request to each route of `served`. */
  const twoRequests = async (served: ReturnType<typeof createApp>, lines: string[]) => {
    const answers = [];
    for (const path of ["/", "/shared"]) {
      const ctx = createExecutionContext();
      const response = await served.fetch(new Request(`http://localhost${path}`), env, ctx);
      await response.text();
      await waitOnExecutionContext(ctx);
      answers.push({ status: response.status, message: JSON.parse(lines.splice(0)[0]!).message });
    }
    return answers;
  };

  /** The app over counted() routes with `built`'s manifest, and its requests to each route. */
  const countedApp = (built: typeof manifest) => {
    const { loaded, routes } = counted();
    const lines: string[] = [];
    const served = createApp({
      ...product,
      routes,
      manifest: built,
      reportError: () => {},
      log: (l) => lines.push(l),
    });
    return { loaded, requests: () => twoRequests(served, lines) };
  };

  it("loads and checks every route as a built app starts, before its first request", async () => {
    const { loaded, requests } = countedApp(manifest);
    expect(loaded).toEqual(["/", "/shared"]);
    for (const answer of await requests()) {
      expect(answer.status).toBe(500);
      expect(answer.message).toMatch(/Route "\/shared" sets cacheControl\.html to "public"/);
    }
    expect(loaded, "each module loads once").toHaveLength(2);
  });

  it("loads them on the first request under vite dev, and answers 500 the same", async () => {
    const { loaded, requests } = countedApp({ ...manifest, mode: "development" });
    expect(loaded).toEqual([]);
    for (const answer of await requests()) {
      expect(answer.status).toBe(500);
      expect(answer.message).toMatch(/Route "\/shared" sets cacheControl\.html to "public"/);
    }
    expect(loaded).toEqual(["/", "/shared"]);
  });
});

describe("answers no cache may keep", () => {
  const { send } = recordedApp([
    page("/", module({ cacheControl: { html: "private, max-age=60" } })),
    page("/away", module({ loader: () => redirect("/"), cacheControl: { html: "private, max-age=60" } })),
    page(
      "/broken",
      module({
        loader: () => {
          throw new Error("broken on purpose");
        },
      }),
    ),
  ]);

  it("sends no-store with a redirect", async () => {
    const { response } = await send("/away");
    expect(response.status).toBe(303);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("sends no-store with the not-found page, a 500 and a 405", async () => {
    const answers = [await send("/nowhere"), await send("/broken"), await send("/", { method: "PUT" })];
    expect(answers.map(({ response }) => response.status)).toEqual([404, 500, 405]);
    for (const { response } of answers) expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("keeps the route's own Cache-Control on its page", async () => {
    const { response } = await send("/");
    expect(response.headers.get("Cache-Control")).toBe("private, max-age=60");
  });
});
