// The edge cache (src/server/page-cache.ts): pages that export `cache` are rendered once and
// served from this location's Cache API, each hit with a fresh nonce; everything else renders.
import { describe, expect, it, vi } from "vitest";
import {
  alterStored,
  cacheApp,
  clockForward,
  fresh,
  pageData,
  storedPlaceholder,
  version,
} from "./cache-app";
import { cspNonce, request, scriptsAndLinks } from "./html";
import { bookmarkAt, sealed } from "./d1-doubles";

const { visit, start } = cacheApp();
const form = { "Content-Type": "application/x-www-form-urlencoded" };

describe("a page that opts into the edge cache", () => {
  it("renders on the first visit and serves the next from the cache, without its loader", async () => {
    const path = fresh("/counted");
    const first = await visit(path);
    const second = await visit(path);
    expect([first.line.cache, second.line.cache]).toEqual(["miss", "hit"]);
    expect(first.body).toContain("Render 1");
    expect(second.body).toContain("Render 1");
    expect(second.response.status).toBe(200);
    expect(second.line).toMatchObject({ level: "info", kind: "html", route: "/counted", status: 200 });
  });

  it("gives every hit a nonce of its own, on each script and in its own CSP header", async () => {
    const path = fresh("/counted");
    await visit(path);
    const hits = [await visit(path), await visit(path)];
    const nonces = hits.map(({ response }) => cspNonce(response));
    expect(new Set(nonces).size).toBe(2);
    for (const [i, { body }] of hits.entries()) {
      const tagged = (await scriptsAndLinks(body)).filter((el) => el.attributes.nonce !== undefined);
      expect(tagged.length).toBeGreaterThanOrEqual(3);
      for (const el of tagged) expect(el.attributes.nonce).toBe(nonces[i]);
    }
  });

  it("serves a large page's hit byte for byte as rendered, its own nonce wherever the render had one", async () => {
    const path = fresh("/large");
    const render = await visit(path);
    const hit = await visit(path);
    expect([render.line.cache, hit.line.cache]).toEqual(["miss", "hit"]);
    expect(new TextEncoder().encode(hit.body).byteLength).toBeGreaterThan(400_000);
    const [rendered, own] = [cspNonce(render.response)!, cspNonce(hit.response)!];
    expect(own).not.toBe(rendered);
    // Preloads in the head; the page data and the streamed section after the table; the entry.
    expect(render.body.split(`nonce="${rendered}"`).length - 1).toBeGreaterThanOrEqual(3);
    // The section was streamed, not inlined: its fallback went out first, React's script follows.
    expect(render.body).toContain("<p>Waiting</p>");
    expect(hit.body).toBe(render.body.replaceAll(rendered, own));
  });

  it("renders instead of serving a stored document longer or shorter than it was stored", async () => {
    const path = fresh("/counted");
    await visit(path);
    const grown = new TextEncoder().encode("<p>Grown after it was stored</p>");
    await alterStored(path, (body) => {
      const longer = new Uint8Array(body.length + grown.length);
      longer.set(body);
      longer.set(grown, body.length);
      return longer;
    });
    const afterGrown = await visit(path);
    await alterStored(path, (body) => body.slice(0, -1));
    const afterCut = await visit(path);
    expect([afterGrown.line.cache, afterCut.line.cache]).toEqual(["miss", "miss"]);
    expect(afterGrown.body).toContain("Render 2");
    expect(afterGrown.body).not.toContain("Grown after it was stored");
    expect(afterCut.body).toContain("Render 3");
    expect(afterCut.body.trimEnd()).toMatch(/<\/html>$/);
    expect((await visit(path)).line.cache).toBe("hit");
  });

  it("keeps browsers from caching a hit: private, no-cache, Vary, no ETag or Last-Modified", async () => {
    const path = fresh("/counted");
    await visit(path);
    const { response } = await visit(path);
    expect(response.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(response.headers.get("Vary")).toBe("X-Page-Data");
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    for (const name of ["ETag", "Last-Modified", "Age", "Expires", "CF-Cache-Status"]) {
      expect(response.headers.get(name), name).toBeNull();
    }
  });

  it("serves nothing from the cache under npm run dev, so a page shows the code as it is", async () => {
    const path = fresh("/counted");
    await visit(path);
    const dev = await cacheApp(undefined, "development").visit(path);
    expect(dev.line.cache).toBe("bypass");
    expect(dev.body).toContain("Render 2");
    expect((await visit(path)).line.cache).toBe("hit");
  });

  it("keeps page data apart from the document, and the same with any _data parameter", async () => {
    const path = fresh("/counted");
    const data = await visit(`${path}&_data=1`, { headers: pageData });
    const again = await visit(`${path}&_data=2`, { headers: pageData });
    const html = await visit(path);
    expect([data.line.cache, again.line.cache, html.line.cache]).toEqual(["miss", "hit", "miss"]);
    expect(JSON.parse(again.body)).toMatchObject({ route: "/counted", data: { n: 1 }, title: "Counted" });
    expect(again.response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(again.response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(html.body).toContain("Render 2");
  });

  it("keeps an entry per value of a query parameter the page declares", async () => {
    const path = fresh("/counted");
    await visit(`${path}&page=1`);
    const other = await visit(`${path}&page=2`);
    expect(other.line.cache).toBe("miss");
    expect(other.body).toContain("Render 1");
  });

  it("serves /?utm_source=x from the page's own entry: parameters it does not read are ignored", async () => {
    const path = fresh("/counted");
    await visit(path);
    const tracked = await visit(`${path}&utm_source=x&fbclid=1`);
    const data = await visit(`${path}&utm_source=y&_data=1`, { headers: pageData });
    expect([tracked.line.cache, tracked.body.includes("Render 1")]).toEqual(["hit", true]);
    expect(data.line.cache).toBe("miss");
    expect((await visit(`${path}&utm_medium=z&_data=1`, { headers: pageData })).line.cache).toBe("hit");
  });

  it("forgets the page when its action is posted with parameters the page does not read", async () => {
    const path = fresh("/acted");
    await visit(path);
    const posted = await visit(`${path}&utm_source=x`, {
      method: "POST",
      headers: form,
      body: "_action=touch",
    });
    expect(posted.response.status).toBe(303);
    expect((await visit(path)).line.cache).toBe("miss");
  });

  it("gives a cached page's loader no cookie, no authorization and no undeclared parameter", async () => {
    const path = fresh("/credentials");
    const headers = { Cookie: "session=secret-of-one-visitor", Authorization: "Bearer one-visitor" };
    const first = await visit(`${path}&utm_source=x`, { headers });
    expect(first.line.cache).toBe("miss");
    const seen = first.body.match(/data-testid="seen">([^<]*)</)?.[1];
    expect(seen).toBe(`cookie=null authorization=null url=http://localhost${path}`);
    expect(first.body).not.toContain("secret-of-one-visitor");
  });

  it("answers HEAD from the same entry, without a body", async () => {
    const path = fresh("/counted");
    await visit(path);
    const head = await visit(path, { method: "HEAD" });
    expect(head.line).toMatchObject({ method: "HEAD", status: 200, cache: "hit" });
    expect(head.body).toBe("");
    expect(cspNonce(head.response)).toBeDefined();
  });

  it("misses for another build, whose pages it never serves", async () => {
    const path = fresh("/counted");
    await visit(path);
    const next = cacheApp("another-build");
    const other = await next.visit(path);
    expect(other.line.cache).toBe("miss");
    expect(other.body).toContain("Render 2");
    expect((await visit(path)).body).toContain("Render 1");
  });

  it("misses for another deploy of the same client build (server code or settings changed)", async () => {
    const path = fresh("/counted");
    await visit(path);
    const deploy = (id: string) => ({ CF_VERSION_METADATA: { id, tag: "", timestamp: "" } });
    const other = await visit(path, {}, deploy("another-version"));
    expect(other.line.cache).toBe("miss");
    expect(other.body).toContain("Render 2");
    expect((await visit(path, {}, deploy("another-version"))).line.cache).toBe("hit");
    expect((await visit(path)).body).toContain("Render 1");
  });

  it("serves a stale entry once while it is refreshed, then the fresh one", async () => {
    const path = fresh("/stale");
    await visit(path);
    clockForward(1100); // past the entry's max-age of 1 s
    const stale = await visit(path);
    const after = await visit(path);
    expect([stale.line.cache, after.line.cache]).toEqual(["stale", "hit"]);
    expect(stale.body).toContain("Render 1");
    expect(after.body).toContain("Render 2");
  });

  it("lets a visitor with a D1 bookmark (header or cookie) past it, neither read nor filled", async () => {
    const path = fresh("/counted");
    await visit(path);
    const header = await visit(path, { headers: { "X-D1-Bookmark": await sealed(bookmarkAt(1)) } });
    const cookie = await visit(path, {
      headers: { Cookie: `theme=dark; d1-bookmark=${await sealed(bookmarkAt(2))}` },
    });
    expect([header.line.cache, cookie.line.cache]).toEqual(["bypass", "bypass"]);
    expect(header.body).toContain("Render 2");
    expect(cookie.body).toContain("Render 3");
    expect((await visit(path)).body).toContain("Render 1");
  });

  it("forgets the page after a successful action, with JavaScript and without", async () => {
    const path = fresh("/acted");
    await visit(path);
    const plain = await visit(path, { method: "POST", headers: form, body: "_action=touch" });
    expect(plain.response.status).toBe(303);
    expect((await visit(path)).line.cache).toBe("miss");
    const script = await visit(path, { method: "POST", headers: { ...form, "X-Action": "touch" }, body: "" });
    expect(script.response.status).toBe(200);
    const after = await visit(path);
    expect(after.line.cache).toBe("miss");
    // Renders 2 and 3: the visit after the plain post, the page in the JavaScript answer.
    expect(after.body).toContain("Render 4");
  });

  it("keeps no render that began before an action forgot the page", async () => {
    const path = fresh("/changing");
    const before = version.now;
    // A visitor's render starts with the page as it is, and waits on its streamed section.
    version.hold();
    const reading = await start(path);
    const bumped = await visit(path, { method: "POST", headers: form, body: "_action=bump" });
    expect(bumped.response.status).toBe(303);
    version.release();
    const old = await reading.finish();
    expect(old.body).toContain(`Version ${before}`);
    // That render ended after the action: what it would have stored is already out of date.
    const next = await visit(path);
    expect(next.line.cache).toBe("miss");
    expect(next.body).toContain(`Version ${before + 1}`);
  });

  it("keeps no refresh that began before an action forgot the page", async () => {
    const path = fresh("/changing-stale");
    const before = version.now;
    await visit(path);
    clockForward(1100); // past the entry's max-age of 1 s
    // A stale hit: served at once, its refresh renders in the background and waits on its section.
    version.hold();
    const stale = await start(path);
    expect((await stale.finish({ background: false })).line.cache).toBe("stale");
    await vi.waitFor(() => expect(version.held).toHaveLength(1));
    const bumped = await visit(path, { method: "POST", headers: form, body: "_action=bump" });
    expect(bumped.response.status).toBe(303);
    version.release();
    await stale.settled();
    const next = await visit(path);
    expect(next.line.cache).toBe("miss");
    expect(next.body).toContain(`Version ${before + 1}`);
  });

  it("keeps the page after a refused action", async () => {
    const path = fresh("/acted");
    await visit(path);
    const refused = await visit(path, { method: "POST", headers: form, body: "_action=refuse" });
    expect(refused.response.status).toBe(422);
    expect((await visit(path)).line.cache).toBe("hit");
  });

  it("does not store a render whose loader failed", async () => {
    const path = fresh("/failing-loader");
    const failed = await visit(path);
    expect(failed.response.status).toBe(500);
    const visits = [await visit(path), await visit(path)];
    expect(visits.map(({ line }) => line.cache)).toEqual(["miss", "hit"]);
  });

  it("does not store a render whose streamed section failed (its digest is one visitor's)", async () => {
    const path = fresh("/failing-section");
    const failed = await visit(path);
    expect(failed.response.status).toBe(200);
    expect(failed.line.digest).toMatch(/^[0-9a-z]{8,16}$/);
    const visits = [await visit(path), await visit(path)];
    expect(visits.map(({ line }) => line.cache)).toEqual(["miss", "hit"]);
    expect(visits[1]!.body).toContain("ok 2");
    expect(visits[1]!.body).not.toContain("Digest");
  });

  it("does not store a loader's redirect, as a document or as page data", async () => {
    const path = fresh("/sent-away");
    expect((await visit(path)).response.status).toBe(303);
    expect((await visit(path)).line.cache).toBe("miss");
    const data = [await visit(path, { headers: pageData }), await visit(path, { headers: pageData })];
    expect(JSON.parse(data[0]!.body)).toEqual({ redirect: "/counted" });
    expect(data.map(({ line }) => line.cache)).toEqual(["miss", "miss"]);
  });

  it("leaves pages without a cache policy out: they render every time, logged without a cache field", async () => {
    const path = fresh("/uncached");
    await visit(path);
    const second = await visit(path);
    expect(second.body).toContain("Render 2");
    expect(second.line).not.toHaveProperty("cache");
  });
});

describe("/slow", () => {
  it("arrives whole, at once, on its second visit: slow part and all, with no wait", async () => {
    // The product's /slow reads no query parameter: `?test=` would be ignored, so no fresh().
    const path = "/slow";
    const first = await request(path);
    expect((await first.body!.getReader().read()).value).toBeDefined();
    await first.body?.cancel().catch(() => {});
    // The first visit streamed and was cut short: not stored. A whole one is.
    await (await request(path)).text();
    await vi.waitFor(async () => expect(await storedPlaceholder(path)).not.toBeNull());
    // The whole body is there at once (the render waited a second for the slow part); the
    // runtime may still hand it over in more than one chunk.
    const started = Date.now();
    const body = await (await request(path)).text();
    expect(Date.now() - started).toBeLessThan(500);
    expect(body).toContain("Arrived after");
    expect(body.trimEnd()).toMatch(/<\/html>$/);
  });
});
