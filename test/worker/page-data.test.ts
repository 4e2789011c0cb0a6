// Page-data answers (docs/protocol.md, "Page data"): the page's own URL with X-Page-Data, answered with JSON.
import { describe, expect, it } from "vitest";
import { visitor } from "verge/test";
import { fixtureClientManifest as clientManifest, fixtureRequest } from "./apps";
import { request } from "./html";

const BASE = "http://localhost";
const DATA = { "X-Page-Data": "1" };

/** The tests' app's page data at `path`, as the page's script asks for it (verge/test). */
const pageData = (
  path: string,
  init: Omit<RequestInit, "headers"> & { headers?: Record<string, string> } = {},
) => visitor({ fetch: fixtureRequest }).data(path, init);

function expectDataHeaders(response: Response) {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.headers.get("vary")).toMatch(/\bX-Page-Data\b/i);
  expect(response.headers.get("cache-control")).toBe("private, no-store");
}

describe("page data", () => {
  it("answers a page's route, params, data, title and build as JSON", async () => {
    const response = await pageData("/twins/one?from=two&_data=1");
    expect(response.status).toBe(200);
    expectDataHeaders(response);
    const body = await response.json();
    expect(body).toMatchObject({
      route: "/twins/one",
      params: {},
      data: { from: "two", query: "?from=two" },
      title: "Twins",
      build: clientManifest.build,
    });
  });

  it("answers JSON for a page without a loader, with data null", async () => {
    const response = await request("/?_data=1", { headers: DATA });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ route: "/", params: {}, data: null, title: "verge" });
  });

  it("drops _data before the loader sees the URL, whatever its value or position", async () => {
    for (const query of ["?_data=1&from=one", "?from=one&_data=", "?_data=x&from=one&_data=y"]) {
      const body = (await (await pageData(`/twins/two${query}`)).json()) as { data: unknown };
      expect(body.data).toEqual({ from: "one", query: "?from=one" });
    }
  });

  it("drops _data from the URL the loader sees in HTML requests too", async () => {
    const html = await (await fixtureRequest(`${BASE}/twins/one?_data=1`)).text();
    expect(html).toContain('"query":""');
    expect(html).not.toContain("_data");
  });

  it("answers the HTML document, varying on X-Page-Data, when the header is absent", async () => {
    const response = await fixtureRequest(`${BASE}/twins/one`);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("vary")).toMatch(/\bX-Page-Data\b/i);
    await response.body?.cancel();
  });

  it("answers a loader redirect as 200 JSON {redirect}", async () => {
    const response = await pageData("/twins?_data=1");
    expect(response.status).toBe(200);
    expectDataHeaders(response);
    expect(await response.json()).toEqual({ redirect: "/twins/one" });
  });

  it("answers 404 JSON with route null for an unknown path", async () => {
    const response = await pageData("/no/such/page?_data=1");
    expect(response.status).toBe(404);
    expectDataHeaders(response);
    expect(await response.json()).toMatchObject({ route: null, params: {}, data: null, status: 404 });
  });

  it("answers 500 JSON with only a digest when the loader throws: no message, no stack", async () => {
    const response = await pageData("/errors/loader?_data=1");
    expect(response.status).toBe(500);
    expectDataHeaders(response);
    const text = await response.text();
    const body = JSON.parse(text);
    expect(body).toEqual({ error: { digest: expect.stringMatching(/^[0-9a-z]{8,16}$/) } });
    expect(text).not.toMatch(/on purpose|Error|at |\.tsx?/);
  });

  it("answers 409 when X-Build names another build, and 200 when it names this one", async () => {
    const stale = await pageData("/twins/one?_data=1", { headers: { "X-Build": "not-this-build" } });
    expect(stale.status).toBe(409);
    expectDataHeaders(stale);
    expect(await stale.json()).toMatchObject({ build: clientManifest.build, reload: true });
    const same = await pageData("/twins/one?_data=1", { headers: { "X-Build": clientManifest.build } });
    expect(same.status).toBe(200);
    await same.body?.cancel();
  });

  it("answers HEAD with the same status and headers and no body", async () => {
    const found = await pageData("/twins/one?_data=1", { method: "HEAD" });
    expect(found.status).toBe(200);
    expectDataHeaders(found);
    expect(await found.text()).toBe("");
    const missing = await pageData("/nowhere", { method: "HEAD" });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("");
  });

  it("settles deferred loader values in the JSON instead of streaming them", async () => {
    const body = (await (await pageData("/slow?_data=1")).json()) as { data: { slow: unknown } };
    expect(body.data.slow).toMatchObject({
      $deferred: "slow",
      settled: { value: { waitedMs: expect.any(Number) } },
    });
  });
});
