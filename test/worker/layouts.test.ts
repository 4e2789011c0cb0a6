// Nested layouts (docs/protocol.md, "Layouts"): their loaders start together, a client navigation
// keeps the layouts it has on screen, and a failure shows the error view of the layout above it.
import { describe, expect, it } from "vitest";
import { recordedApp } from "./apps";

const recorded = recordedApp("fixture");

/** One request to the tests' own app: its answer, body, first log line and error reports. */
async function send(path: string, init: RequestInit = {}, vars: Partial<Env> = {}) {
  const { lines, ...rest } = await recorded.send(path, init, vars);
  return { ...rest, line: lines[0]! };
}

const DATA = { "X-Page-Data": "1" };
const json = (body: string) => JSON.parse(body) as Record<string, any>;

describe("nested layouts", () => {
  it("renders the page inside its three layouts, outermost first, with each layout's data", async () => {
    const { response, body } = await send("/nest/first/a");
    expect(response.status).toBe(200);
    const outer = body.indexOf('data-testid="layout-outer"');
    const middle = body.indexOf('data-testid="layout-middle"');
    const inner = body.indexOf('data-testid="layout-inner"');
    const heading = body.indexOf("<h1>Nest <!-- -->a<!-- --> in <!-- -->first</h1>");
    expect(outer).toBeGreaterThan(0);
    expect([outer < middle, middle < inner, inner < heading]).toEqual([true, true, true]);
    expect(body).toMatch(/outer<!-- --> loaded <!-- -->\d+/);
    // The outer layout's title wraps the page's.
    expect(body).toContain("<title>Nest a · Nest</title>");
  });

  it("starts every loader at once: three 100 ms layouts and a page take about 100 ms, not 400", async () => {
    const { response, line } = await send("/nest/first/a?delay=100");
    expect(response.status).toBe(200);
    const phases = ["layout:outer", "layout:middle", "layout:inner", "loader"].map(
      (name) => line.timings[name] as [number, number],
    );
    for (const [at, ms] of phases) expect(ms).toBeGreaterThanOrEqual(90);
    // Side by side: each began before any of the others ended.
    const firstEnd = Math.min(...phases.map(([at, ms]) => at + ms));
    for (const [at] of phases) expect(at).toBeLessThan(firstEnd);
    expect(line.ms).toBeLessThan(300);
  });

  it("leaves out of page data the layouts the client keeps, and runs none of their loaders", async () => {
    const full = json((await send("/nest/first/b?_data=1", { headers: DATA })).body);
    expect(Object.keys(full.layouts)).toEqual(["outer", "middle", "inner"]);
    const { body, line } = await send("/nest/first/a?_data=outer,middle,inner", { headers: DATA });
    const page = json(body);
    expect(page.layouts).toEqual({});
    expect(page.data).toMatchObject({ id: "page", via: "nestGuard" });
    expect(Object.keys(line.timings).filter((phase) => phase.startsWith("layout:"))).toEqual([]);
    // The page data of another section still carries the layouts that read the section.
    const other = json((await send("/nest/other/a?_data=outer", { headers: DATA })).body);
    expect(Object.keys(other.layouts)).toEqual(["middle", "inner"]);
  });

  it("shows a page's failure in the innermost layout's error view, every layout's chrome kept", async () => {
    const { response, body, line, reports } = await send("/nest/first/a?fail=page");
    expect(response.status).toBe(500);
    expect(body).toContain('data-testid="layout-inner"');
    expect(body).toContain('data-testid="inner-error"');
    expect(body).not.toContain("page failed on purpose");
    expect(body).toContain(`<code data-testid="digest">${line.digest}</code>`);
    expect(reports.map((report) => report.digest)).toEqual([line.digest]);
  });

  it("shows a layout loader's failure in the view of the layout above it, without its own chrome", async () => {
    const inner = await send("/nest/first/a?fail=inner");
    expect(inner.response.status).toBe(500);
    expect(inner.body).toContain('data-testid="layout-middle"');
    expect(inner.body).toContain('data-testid="middle-error"');
    expect(inner.body).not.toContain('data-testid="layout-inner"');
    expect(inner.body).toContain(`<code data-testid="digest">${inner.line.digest}</code>`);

    const outer = await send("/nest/first/a?fail=outer");
    expect(outer.response.status).toBe(500);
    expect(outer.body).not.toContain('data-testid="layout-outer"');
    // Above the outermost layout: the app's own route error view, inside the app's layout.
    expect(outer.body).toContain('data-testid="route-error"');
    expect(outer.body).toContain('class="site-header"');
    expect(outer.body).toContain(`<code data-testid="digest">${outer.line.digest}</code>`);
  });

  it("answers a failure below a layout as page data with the error where it happened", async () => {
    const { response, body, line } = await send("/nest/first/a?fail=middle&_data=1", { headers: DATA });
    expect(response.status).toBe(500);
    const page = json(body);
    expect(page.layouts.middle).toEqual({ error: { digest: line.digest } });
    expect(page.layouts.outer.data).toMatchObject({ id: "outer" });
    expect(body).not.toContain("failed on purpose");
  });
});

describe("middleware", () => {
  it("hands a typed value to the loaders and actions below and adds its headers to the answer", async () => {
    const { response, body } = await send("/nest/first/a");
    expect(body).toContain("via <!-- -->nestGuard");
    expect(response.headers.get("X-Nest")).toBe("outer");
    const posted = await send("/nest/first/a", {
      method: "POST",
      headers: { "X-Action": "touch", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(json(posted.body)).toMatchObject({ ok: true, result: { touched: "nestGuard" } });
    expect(posted.response.headers.get("X-Nest")).toBe("outer");
  });

  it("is a phase of the log line's timings, before the loaders", async () => {
    const { line } = await send("/nest/first/a");
    const [at] = line.timings["middleware:nestGuard"] as [number, number];
    expect(at).toBeLessThanOrEqual((line.timings["layout:outer"] as [number, number])[0]);
  });

  it("redirects a document with 302, page data with its redirect JSON, actions with 303 or JSON", async () => {
    const document = await send("/nest/first/a?guard=1");
    expect(document.response.status).toBe(302);
    expect(document.response.headers.get("Location")).toBe("/nest");
    expect(document.response.headers.get("Set-Cookie")).toBe("nest-guard=1; Path=/; HttpOnly");
    // No loader ran: the middleware answered first.
    expect(Object.keys(document.line.timings).filter((phase) => phase.startsWith("layout:"))).toEqual([]);

    const data = await send("/nest/first/a?guard=1&_data=1", { headers: DATA });
    expect(data.response.status).toBe(200);
    expect(json(data.body)).toEqual({ redirect: "/nest" });

    const script = await send("/nest/first/a?guard=1", {
      method: "POST",
      headers: { "X-Action": "touch", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(json(script.body)).toEqual({ ok: true, redirect: "/nest" });
    expect(script.line.timings.action).toBeUndefined();

    const form = await send("/nest/first/a?guard=1", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "_action=touch",
    });
    expect(form.response.status).toBe(303);
    expect(form.response.headers.get("Location")).toBe("/nest");
    expect(form.line.timings.action).toBeUndefined();
  });
});

describe("Server-Timing", () => {
  it("names each middleware and each layout's loader beside the page's", async () => {
    const { response } = await send("/nest/first/a", {}, { SERVER_TIMING: "1" });
    const timing = response.headers.get("Server-Timing") ?? "";
    expect(timing).toMatch(/middleware;dur=[\d.]+;desc="nestGuard"/);
    for (const id of ["outer", "middle", "inner"])
      expect(timing).toMatch(new RegExp(`layout;dur=[\\d.]+;desc="${id}"`));
    expect(timing).toMatch(/\bloader;dur=/);
  });
});
