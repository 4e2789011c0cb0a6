// Client navigation when things go wrong or take long: a chunk that fails to load, a slow
// page's progress bar, the not-found page (a full load: no route matches) and a loader's error
// view, all without a blank page.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useBrowser, openPage, TEST_APP } from "./support";
import { addLink, announced, heading, location, marker, openHome, unexpected } from "./navigation-helpers";

const browser = useBrowser();

describe("client navigation, fallbacks", () => {
  it("does a full page load of the target when the route's chunk fails to load", async () => {
    // The tests' app's build (test/fixture-app/vite.config.ts): its pages are keyed from its folder.
    const { manifest } = JSON.parse(
      await readFile(path.resolve(import.meta.dirname, "../../dist/fixture/client-build.json"), "utf8"),
    );
    const chunk: string = manifest.modules["pages/twins-one.tsx"].file;
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openHome(page);
    await page.route(`**${chunk}`, (route) => route.abort(), { times: 1 });
    await page.getByRole("link", { name: "Twins" }).click();
    await page.waitForURL(/\/twins\/one$/);
    await expect.poll(() => heading(page)).toBe("Twin one");
    expect(await marker(page)).toBeUndefined();
    expect(problems.filter((p) => !p.includes("net::ERR_FAILED"))).toEqual([]);
    await context.close();
  });

  it("shows a slow page's progress bar while the old page stays, then the new page", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openHome(page);
    await page.getByRole("link", { name: "Slow" }).first().click();
    await page.locator(".progress").waitFor({ state: "attached" });
    expect(await heading(page)).toBe("verge");
    await expect.poll(() => heading(page)).toBe("Slow");
    expect(await page.getByTestId("slow-value").isVisible()).toBe(true);
    expect(await page.locator(".progress").count()).toBe(0);
    await expect.poll(() => announced(page)).toBe("Slow");
    expect(await marker(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  it("loads a path no route matches in full, and shows a loader's error view client-side, with the digest", async () => {
    const { page, problems, context } = await openPage(browser(), TEST_APP);
    await openHome(page);
    await addLink(page, "/no/such/page", "Nowhere");
    await page.getByRole("link", { name: "Nowhere" }).click();
    await expect.poll(() => heading(page)).toBe("Page not found");
    expect(location(page)).toBe("/no/such/page");
    // Route discovery found no route: the server's own document says what the address is.
    expect(await marker(page)).toBeUndefined();
    await openHome(page);

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Errors" }).click();
    await expect.poll(() => heading(page)).toBe("Errors");
    await page.getByRole("link", { name: "/errors/loader" }).click();
    await page.getByTestId("route-error").waitFor();
    expect(location(page)).toBe("/errors/loader");
    expect(await page.getByTestId("digest").textContent()).toMatch(/^[0-9a-z]{8,16}$/);
    expect(await marker(page)).toBe("first");
    expect(unexpected(problems, 404, 500)).toEqual([]);
    await context.close();
  });
});
