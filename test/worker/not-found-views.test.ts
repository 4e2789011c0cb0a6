// notFound() from a loader, an action or a middleware (docs/protocol.md, "Not found"): the app's
// not-found view inside the page's layouts with 404, as a document, page data or an action's
// answer; and a page's own ErrorView, shown inside its layouts when its loader or render fails.
import { describe, expect, it } from "vitest";
import { PAGE_DATA_SCRIPT_ID } from "../../src/shared/protocol";
import { endpoint } from "../../src/shared/endpoint";
import { layout } from "../../src/shared/layouts";
import { notFound } from "../../src/shared/not-found";
import { page } from "../../src/shared/route-module";
import { recordedApp } from "./apps";
import { scriptsAndLinks } from "./html";

const recorded = recordedApp("fixture");

async function send(path: string, init: RequestInit = {}) {
  const { lines, ...rest } = await recorded.send(path, init);
  return { ...rest, line: lines[0]! };
}

const DATA = { "X-Page-Data": "1" };
const NOT_FOUND_TEXT = "There is no page at this address.";
const json = (body: string) => JSON.parse(body) as Record<string, any>;
/** Where `marker` is in `body`: -1 when it is not. */
const at = (body: string, marker: string) => body.indexOf(marker);

async function embedded(body: string) {
  const script = (await scriptsAndLinks(body)).find((el) => el.attributes.id === PAGE_DATA_SCRIPT_ID);
  return JSON.parse(script!.text) as Record<string, any>;
}

describe("notFound() from a loader", () => {
  it("answers a document with 404 and the not-found view inside every layout of the page", async () => {
    const { response, body, line } = await send("/nest/first/a?missing=page");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const inner = at(body, 'data-testid="layout-inner"');
    expect(at(body, 'data-testid="layout-outer"')).toBeGreaterThan(0);
    expect(inner).toBeGreaterThan(at(body, 'data-testid="layout-middle"'));
    expect(at(body, NOT_FOUND_TEXT)).toBeGreaterThan(inner);
    expect(body).toContain('class="site-header"');
    expect(body).not.toContain("<h1>Nest");
    expect(body).toContain("<title>Page not found · Nest</title>");
    // The not-found page's head: no canonical address.
    expect(body).not.toContain('rel="canonical"');
    expect(line).toMatchObject({ kind: "html", status: 404, route: "/nest/:section/a" });
    expect(line.digest).toBeUndefined();
    // The browser hydrates the same view: the route is kept, and says it was not found.
    expect(await embedded(body)).toMatchObject({ route: "/nest/:section/a", status: 404, notFound: true });
  });

  it("from a layout's loader, shows the view in that layout's place, inside the layouts above", async () => {
    const { response, body, line } = await send("/nest/first/a?missing=inner");
    expect(response.status).toBe(404);
    expect(at(body, NOT_FOUND_TEXT)).toBeGreaterThan(at(body, 'data-testid="layout-middle"'));
    expect(body).not.toContain('data-testid="layout-inner"');
    expect(line.status).toBe(404);
  });

  it("returned by the loader of a page without layouts, shows the view inside the app's layout", async () => {
    const { response, body, line } = await send("/own-error?missing=page");
    expect(response.status).toBe(404);
    expect(at(body, NOT_FOUND_TEXT)).toBeGreaterThan(at(body, 'class="site-header"'));
    expect(body).not.toContain("<h1>Own error</h1>");
    expect(line).toMatchObject({ status: 404, route: "/own-error" });
  });

  it("on a cached page with a per-visitor part, answers 404 and stores nothing", async () => {
    const { send } = recordedApp([
      page("/shelf", async () => ({
        default: () => null,
        title: "Shelf",
        cache: { maxAge: 60, query: ["missing"] },
        loader: ({ url }: { url: URL }) => (url.searchParams.has("missing") ? notFound() : {}),
        visitorLoader: () => ({ name: "visitor" }),
      })),
    ]);
    for (const attempt of [1, 2]) {
      const { response, body, lines } = await send("/shelf?missing=1");
      expect(response.status, `attempt ${attempt}`).toBe(404);
      expect(body).toContain(NOT_FOUND_TEXT);
      expect(lines[0]).toMatchObject({ status: 404, cache: "miss" });
    }
    const data = await send("/shelf?missing=1&_data=1", { headers: DATA });
    expect(data.response.status).toBe(404);
    expect(json(data.body)).toMatchObject({ route: "/shelf", notFound: true, data: null });
  });

  it("answers page data with 404 and the page's shape, the layouts' data in it", async () => {
    const { response, body, line } = await send("/nest/first/a?missing=page&_data=1", { headers: DATA });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/json");
    const page = json(body);
    expect(page).toMatchObject({
      route: "/nest/:section/a",
      params: { section: "first" },
      data: null,
      title: "Page not found · Nest",
      status: 404,
      notFound: true,
    });
    expect(page.layouts.inner.data).toMatchObject({ id: "inner" });
    expect(line).toMatchObject({ kind: "data", status: 404 });

    const layout = json((await send("/nest/first/a?missing=middle&_data=1", { headers: DATA })).body);
    expect(layout.layouts.middle).toEqual({ notFound: true });
    expect(layout.layouts.outer.data).toMatchObject({ id: "outer" });
  });
});

describe("notFound() from a middleware", () => {
  it("of the page: the view inside every layout, whose loaders ran, and the page's did not", async () => {
    const { response, body, line } = await send("/nest/first/b?gone=1");
    expect(response.status).toBe(404);
    expect(at(body, NOT_FOUND_TEXT)).toBeGreaterThan(at(body, 'data-testid="layout-inner"'));
    expect(body).toContain('data-testid="layout-outer"');
    expect(line).toMatchObject({ kind: "html", status: 404, route: "/nest/:section/b" });
    expect(Object.keys(line.timings)).toEqual(
      expect.arrayContaining(["middleware:nestGuard", "middleware:nestGone", "layout:outer", "layout:inner"]),
    );
    expect(line.timings.loader).toBeUndefined();

    const data = await send("/nest/first/b?gone=1&_data=1", { headers: DATA });
    expect(data.response.status).toBe(404);
    expect(json(data.body)).toMatchObject({ route: "/nest/:section/b", notFound: true, status: 404 });
    expect(json(data.body).layouts.inner.data).toMatchObject({ id: "inner" });
  });

  it("of a layout: the view inside the layouts above it, none of the loaders below it run", async () => {
    const { response, body, line } = await send("/nest/first/a?guard=missing");
    expect(response.status).toBe(404);
    expect(body).not.toContain('data-testid="layout-outer"');
    expect(at(body, NOT_FOUND_TEXT)).toBeGreaterThan(at(body, 'class="site-header"'));
    expect(line.status).toBe(404);
    expect(Object.keys(line.timings).filter((phase) => /^(layout:|loader)/.test(phase))).toEqual([]);

    const data = await send("/nest/first/a?guard=missing&_data=1", { headers: DATA });
    expect(data.response.status).toBe(404);
    expect(json(data.body)).toMatchObject({
      notFound: true,
      layouts: { outer: { notFound: true }, middle: { notFound: true }, inner: { notFound: true } },
    });
  });

  it("of an endpoint's layout: 404 JSON, as the endpoint's other refusals", async () => {
    const { send } = recordedApp([
      ...layout(
        "gone",
        async () => ({
          default: () => null,
          middleware: [
            function gone() {
              return notFound();
            },
          ],
        }),
        [endpoint("/api/gone", async () => ({ GET: () => Response.json({ here: true }) }))],
      ),
    ]);
    const { response, body, lines } = await send("/api/gone");
    expect(response.status).toBe(404);
    expect(JSON.parse(body)).toEqual({ error: { message: "Not Found" } });
    expect(lines[0]).toMatchObject({ kind: "endpoint", status: 404 });
  });
});

describe("notFound() from an action", () => {
  const find = (id: string) => ({
    method: "POST",
    headers: { "X-Action": "find", "Content-Type": "application/json" },
    body: JSON.stringify({ id }),
  });

  it("with JavaScript, answers 404 JSON carrying the page to show, not the unknown action's reload", async () => {
    const { response, body, line } = await send("/nest/first/a", find("nope"));
    expect(response.status).toBe(404);
    const answer = json(body);
    expect(answer).toMatchObject({
      ok: false,
      notFound: true,
      page: { route: "/nest/:section/a", status: 404, notFound: true },
    });
    expect(answer.reload).toBeUndefined();
    expect(answer.page.layouts.inner.data).toMatchObject({ id: "inner" });
    expect(line).toMatchObject({ kind: "action", status: 404 });

    expect(json((await send("/nest/first/a", find("known"))).body)).toMatchObject({
      ok: true,
      result: { found: "known" },
    });
  });

  it("without JavaScript, renders the not-found view inside the page's layouts with 404", async () => {
    const { response, body, line } = await send("/nest/first/a", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "_action=find&id=nope",
    });
    expect(response.status).toBe(404);
    expect(at(body, NOT_FOUND_TEXT)).toBeGreaterThan(at(body, 'data-testid="layout-inner"'));
    expect(line.status).toBe(404);
  });
});

describe("a page's own ErrorView", () => {
  it("shows its loader's failure inside the app's layout, not the whole-page fallback", async () => {
    const { response, body, line, reports } = await send("/own-error?fail=page");
    expect(response.status).toBe(500);
    expect(at(body, 'data-testid="own-error"')).toBeGreaterThan(at(body, 'class="site-header"'));
    expect(body).not.toContain("Application error");
    expect(body).not.toContain("failed on purpose");
    expect(body).toContain(`<code data-testid="digest">${line.digest}</code>`);
    expect(reports.map((report) => report.digest)).toEqual([line.digest]);
    expect(await embedded(body)).toMatchObject({ route: "/own-error", error: { digest: line.digest } });
  });

  it("below layouts, shows instead of the innermost layout's error view, the layouts kept", async () => {
    const { response, body, line } = await send("/nest/first/own?fail=page");
    expect(response.status).toBe(500);
    expect(at(body, 'data-testid="own-error"')).toBeGreaterThan(at(body, 'data-testid="layout-inner"'));
    expect(body).not.toContain('data-testid="inner-error"');
    expect(body).toContain(`<code data-testid="digest">${line.digest}</code>`);
  });

  it("shows a failure of its render on the server, with the digest on the log line", async () => {
    const { response, body, line } = await send("/nest/first/own?throw=render");
    expect(response.status).toBe(500);
    expect(at(body, 'data-testid="own-error"')).toBeGreaterThan(at(body, 'data-testid="layout-inner"'));
    expect(body).not.toContain("Application error");
    expect(body).toContain(`<code data-testid="digest">${line.digest}</code>`);
    expect(line.status).toBe(500);
  });

  it("answers page data for its loader's failure in the page's shape, for the client to show it", async () => {
    const { response, body, line } = await send("/own-error?fail=page&_data=1", { headers: DATA });
    expect(response.status).toBe(500);
    expect(json(body)).toMatchObject({ route: "/own-error", status: 500, error: { digest: line.digest } });
  });
});
