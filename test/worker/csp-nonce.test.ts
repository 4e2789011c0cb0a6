import { describe, expect, it } from "vitest";
import { cspNonce, request, scriptsAndLinks } from "./html";
import { fixtureRequest } from "./apps";

/** A page of the product, or (/echo) of the tests' app. */
async function readAll(path: string) {
  const response = await (path.startsWith("/echo") ? fixtureRequest : request)(path);
  return { response, html: await response.text() };
}

describe("the CSP nonce", () => {
  // /slow adds React's streaming scripts and a deferred value's JSON after the shell.
  for (const path of ["/", "/slow", "/echo?text=hi", "/not-a-page"]) {
    it(`is on every <script> and modulepreload link of ${path}, and matches the header`, async () => {
      const { response, html } = await readAll(path);
      const nonce = cspNonce(response);
      expect(nonce).toMatch(/^[A-Za-z0-9+/=_-]{16,}$/);
      const elements = await scriptsAndLinks(html);
      const scripts = elements.filter((el) => el.tag === "script");
      const preloads = elements.filter((el) => el.attributes.rel === "modulepreload");
      // The page data, the entry module, and at least the entry as a preload.
      expect(scripts.length).toBeGreaterThanOrEqual(2);
      expect(preloads.length).toBeGreaterThanOrEqual(1);
      for (const el of [...scripts, ...preloads]) {
        expect(el.attributes.nonce, JSON.stringify(el.attributes)).toBe(nonce);
      }
      // A raw count too, so no script can hide from the parser above.
      expect(html.match(/<script\b/g)?.length).toBe(scripts.length);
    });
  }

  it("is different on every request", async () => {
    const nonces = new Set<string | undefined>();
    for (let i = 0; i < 5; i++) nonces.add(cspNonce((await readAll("/")).response));
    expect(nonces.size).toBe(5);
  });

  it("loads the client entry as a module script", async () => {
    const { html } = await readAll("/");
    const entry = (await scriptsAndLinks(html)).find(
      (el) => el.tag === "script" && el.attributes.type === "module",
    );
    expect(entry?.attributes.src).toMatch(/^\/assets\/entry-[\w-]+\.js$/);
  });
});
