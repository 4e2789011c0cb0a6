// Route discovery in the browser (client/discovery.ts): a first load carries its own page's route
// line only; a link hovered or followed asks the server for its path's line, once; a path no
// route matches, or an answer from another build, loads in full.
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useBrowser, openPage, TEST_APP } from "./support";
import { addLink, heading, location, marker, openHome, unexpected } from "./navigation-helpers";

const browser = useBrowser();

/** The discovery requests the page makes: each one's asked paths and build, and its status. */
function recordDiscovery(page: Page) {
  const seen: { paths: string[]; build: string | null; status: number }[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (url.pathname !== "/__verge/routes") return;
    seen.push({
      paths: url.searchParams.getAll("path"),
      build: url.searchParams.get("build"),
      status: response.status(),
    });
  });
  return seen;
}

/** Follows a link as a script or assistive technology would: a click with no hover before it. */
const clickWithoutHover = (page: Page, name: string) =>
  page.getByRole("link", { name }).evaluate((link: HTMLElement) => link.click());

const build = (page: Page) =>
  page.evaluate(
    () => (JSON.parse(document.getElementById("__verge_page")!.textContent!) as { build: string }).build,
  );

describe("route discovery", () => {
  it("discovers a hovered link's route once; the click then navigates client-side", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    const discovered = recordDiscovery(page);
    await openHome(page);
    expect(discovered).toEqual([]);
    const link = page.getByRole("link", { name: "Twins" });
    await link.hover();
    await expect.poll(() => discovered.length).toBe(1);
    expect(discovered).toEqual([{ paths: ["/twins"], build: await build(page), status: 200 }]);
    await page.mouse.move(0, 0);
    await link.hover();
    await link.click();
    await expect.poll(() => heading(page)).toBe("Twin one");
    expect(await marker(page)).toBe("first");
    // /twins redirects to /twins/one: that path is asked too, once; /twins never again.
    expect(discovered.map((d) => d.paths)).toEqual([["/twins"], ["/twins/one"]]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("navigates client-side after discovering a link followed without a hover", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    const discovered = recordDiscovery(page);
    await openHome(page);
    await addLink(page, "/nest/first/a", "Nest A");
    await clickWithoutHover(page, "Nest A");
    await expect.poll(() => location(page)).toBe("/nest/first/a");
    expect(await marker(page)).toBe("first");
    expect(discovered).toEqual([{ paths: ["/nest/first/a"], build: await build(page), status: 200 }]);
    // Its three layouts came with it: their chrome is on screen.
    await page.getByTestId("layout-inner").waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("loads a path no route matches in full: the server's not-found page", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    const discovered = recordDiscovery(page);
    await openHome(page);
    await addLink(page, "/no/such/page", "Nowhere");
    await clickWithoutHover(page, "Nowhere");
    await expect.poll(() => heading(page)).toBe("Page not found");
    expect(location(page)).toBe("/no/such/page");
    expect(await marker(page)).toBeUndefined();
    expect(discovered).toEqual([{ paths: ["/no/such/page"], build: expect.any(String), status: 200 }]);
    expect(unexpected(problems, 404)).toEqual([]);
    await context.close();
  });

  it("loads the page in full when the page runs another build than the server", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    const discovered = recordDiscovery(page);
    // The document says it is an older build's, as a tab left open across a deploy would be.
    await page.route(
      (url) => url.pathname === "/",
      async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replace(/"build":"\w+"/, '"build":"an-older-build"');
        const { "content-encoding": _, "content-length": __, ...headers } = response.headers();
        await route.fulfill({ status: response.status(), headers, body });
      },
    );
    await openHome(page);
    await clickWithoutHover(page, "Twins");
    await page.waitForURL(/\/twins\/one$/);
    await expect.poll(() => heading(page)).toBe("Twin one");
    expect(await marker(page)).toBeUndefined();
    expect(discovered).toEqual([{ paths: ["/twins"], build: "an-older-build", status: 409 }]);
    expect(unexpected(problems, 409)).toEqual([]);
    await context.close();
  });
});
