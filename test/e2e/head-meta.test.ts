// What browsers and crawlers read in <head>: every example page describes itself, and a client
// navigation leaves the head exactly as a full load of the new page would have it.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { inject } from "vitest";
import { openPage, useBrowser } from "./support";
import { examplePages } from "./example-pages";
import { addLink, heading, openHome } from "./navigation-helpers";

const browser = useBrowser();

/** The head's description, robots, canonical, Open Graph and Twitter tags, as sorted "key=value" lines. */
const headTags = (page: Page) =>
  page.evaluate(() =>
    [...document.head.querySelectorAll("meta[name], meta[property], link[rel='canonical']")]
      .map((el) => {
        const key = el.getAttribute("name") ?? el.getAttribute("property") ?? el.getAttribute("rel");
        return `${key}=${el.getAttribute("content") ?? el.getAttribute("href")}`;
      })
      // The document's own, the same on every page: the viewport, and where Vite's chunk loader
      // reads the nonce.
      .filter((line) => !line.startsWith("viewport=") && !line.startsWith("csp-nonce="))
      .sort(),
  );

/** The head a fresh load of `path` has, in a page of its own. */
async function headOfFullLoad(path: string): Promise<string[]> {
  const { page, context } = await openPage(browser());
  await page.goto(path);
  const tags = await headTags(page);
  await context.close();
  return tags;
}

const description = (tags: string[]) => tags.filter((line) => line.startsWith("description="));

describe("head tags", () => {
  it("give every example page the server renders (status 200) a description of its own", async () => {
    const { page, context } = await openPage(browser());
    const seen = new Map<string, string>();
    for (const path of await examplePages()) {
      const response = await page.goto(path);
      if (response?.status() !== 200) continue; // a server error page (/errors/loader) is the runtime's
      const found = description(await headTags(page));
      expect(found, path).toHaveLength(1);
      const text = found[0]!.slice("description=".length);
      expect(text.trim(), path).not.toBe("");
      expect(seen.get(text), `${path} repeats the description of`).toBeUndefined();
      seen.set(text, path);
    }
    expect(seen.size).toBeGreaterThanOrEqual(5);
    await context.close();
  });

  it("after a client navigation are the new page's, as a full load has them, and none of the old", async () => {
    const { page, context, problems } = await openPage(browser());
    await openHome(page);
    const home = await headTags(page);
    expect(new Set(home).size, "hydration leaves no tag twice").toBe(home.length);
    expect(home).toEqual(await headOfFullLoad("/"));
    expect(home).toContain(`canonical=${inject("baseURL")}/`);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Guestbook" }).click();
    await expect.poll(() => heading(page)).toBe("Guestbook");
    const guestbook = await headTags(page);
    expect(guestbook).toEqual(await headOfFullLoad("/guestbook"));
    expect(guestbook.filter((line) => home.includes(line) && !/^(og:type|twitter:card)=/.test(line))).toEqual(
      [],
    );
    // All of it a client navigation: the document is still the first one.
    expect(await page.evaluate(() => (window as { __document?: string }).__document)).toBe("first");

    // The not-found page adds robots and has no canonical address; leaving it takes robots away.
    // (A path no route matches loads in full: route discovery finds no line for it.)
    await addLink(page, "/no/such/page", "Nowhere");
    await page.getByRole("link", { name: "Nowhere" }).click();
    await expect.poll(() => heading(page)).toBe("Page not found");
    const missing = await headTags(page);
    expect(missing).toContain("robots=noindex");
    expect(missing.some((line) => line.startsWith("canonical="))).toBe(false);

    await page.goBack();
    await expect.poll(() => heading(page)).toBe("Guestbook");
    expect(await headTags(page)).toEqual(guestbook);
    expect(problems.filter((p) => !p.includes("status of 404"))).toEqual([]);
    await context.close();
  });
});
