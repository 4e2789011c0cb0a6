// What a team expects of a Vite app, on the tests' app's /styled: a page's own stylesheet, a CSS
// module, an imported image and Tailwind (a plugin in its vite.config.ts), styled from the first
// paint, after a client navigation and without JavaScript.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser, openPage, TEST_APP } from "./support";
import { heading, marker, openHome } from "./navigation-helpers";

const browser = useBrowser();

/** The heading's color in pages/styled.css (the layout's own text color is another). */
const HEADING_COLOR = "rgb(192, 48, 127)";

/** What a visitor's browser applied on /styled: one computed style from each source of CSS. */
async function appliedStyles(page: Page) {
  return page.evaluate(() => {
    const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
    const badge = document.querySelector("main p span")!;
    const box = style("[data-testid=tailwind-box]");
    return {
      heading: style("main h1").color,
      badge: { className: badge.className, caps: getComputedStyle(badge).fontVariantCaps },
      tailwind: { border: `${box.borderTopWidth} ${box.borderTopStyle}`, padding: box.paddingTop },
    };
  });
}

const STYLED = {
  heading: HEADING_COLOR,
  badge: { className: expect.not.stringMatching(/^badge$/), caps: "small-caps" },
  tailwind: { border: "2px dashed", padding: "16px" },
};

/** The stylesheets linked in the page now, with the nonce each carries. */
const linkedStylesheets = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].map((link) => ({
      href: new URL(link.href).pathname,
      nonce: link.nonce,
    })),
  );

/** The stylesheets a document's HTML links, in order. */
const stylesheets = (html: string) =>
  [...html.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)].map(
    ([tag]) => /\bhref="([^"]+)"/.exec(tag)![1]!,
  );

describe("a page's own CSS, CSS module, image and Tailwind utilities", () => {
  it("links the page's stylesheet before any module script on first load, and applies it", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    const shell = stylesheets(await (await context.request.get("/")).text());
    const response = await page.goto("/styled");
    const html = await response!.text();
    const own = stylesheets(html).filter((href) => !shell.includes(href));
    expect(own).toEqual([expect.stringMatching(/^\/assets\/[\w-]+\.css$/)]);
    const linkedAt = html.search(new RegExp(`<link\\b[^>]*href="${own[0]}"`));
    const firstScript = html.search(/<script\b[^>]*type="module"|<link\b[^>]*rel="modulepreload"/);
    expect(linkedAt).toBeGreaterThan(0);
    expect(firstScript).toBeGreaterThan(linkedAt);
    expect(html.slice(0, html.indexOf("</head>"))).toContain(own[0]);

    expect(await appliedStyles(page)).toEqual(STYLED);
    // The module's class name is scoped: nothing in the page carries the source's name.
    expect(await page.locator(".badge").count()).toBe(0);
    expect((await appliedStyles(page)).badge.className).toMatch(/badge/);

    const image = page.getByRole("img", { name: "A mosaic of coloured tiles" });
    const src = await image.getAttribute("src");
    expect(src).toMatch(/^\/assets\/mosaic-[\w-]{8,}\.svg$/);
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const asset = await context.request.get(src!);
    expect(asset.status()).toBe(200);
    expect(asset.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.headers()["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("loads the page's stylesheet before showing the page after a client navigation", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    // The heading's color at the moment it enters the DOM, before the browser could paint it.
    await page.addInitScript(() => {
      const seen: { color?: string } = {};
      Object.assign(window, { __styledHeading: seen });
      new MutationObserver((_, observer) => {
        const h1 = [...document.querySelectorAll("main h1")].find((h) => h.textContent === "Styled");
        if (!h1) return;
        seen.color = getComputedStyle(h1).color;
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await openHome(page);
    const before = await linkedStylesheets(page);
    await page.getByRole("main").getByRole("link", { name: "Styled" }).click();
    await expect.poll(() => heading(page)).toBe("Styled");
    expect(await marker(page)).toBe("first");
    expect(await page.evaluate(() => (window as { __styledHeading?: object }).__styledHeading)).toEqual({
      color: HEADING_COLOR,
    });
    expect(await appliedStyles(page)).toEqual(STYLED);
    // The router linked it as it imported the page's chunk, with the nonce React put in <meta property="csp-nonce">.
    const added = (await linkedStylesheets(page)).filter((link) => !before.some((b) => b.href === link.href));
    const nonce = await page.evaluate(
      () => document.querySelector<HTMLMetaElement>("meta[property=csp-nonce]")?.nonce,
    );
    expect(nonce).toMatch(/^[\w+/]{24}$/);
    expect(added).toEqual([{ href: expect.stringMatching(/^\/assets\/[\w-]+\.css$/), nonce }]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("is styled without JavaScript", async () => {
    const { page, problems, context } = await openPage(browser(), { ...TEST_APP, javaScriptEnabled: false });
    await page.goto("/styled");
    expect(await appliedStyles(page)).toEqual(STYLED);
    const image = page.getByRole("img", { name: "A mosaic of coloured tiles" });
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const colorScheme of ["light", "dark"] as const) {
    it(`passes axe's checks, ${colorScheme} color scheme`, async () => {
      const { page, context } = await openPage(browser(), { ...TEST_APP, colorScheme });
      await page.goto("/styled", { waitUntil: "networkidle" });
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.passes.length).toBeGreaterThan(10);
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" "))}`)).toEqual([]);
      await context.close();
    });
  }
});
