import { beforeAll, describe, expect, it } from "vitest";
import { useBrowser, openPage, TEST_APP } from "./support";
import { examplePages } from "./example-pages";

const browser = useBrowser();
let pages: string[];
beforeAll(async () => {
  pages = await examplePages();
});

describe("every example page with JavaScript disabled", () => {
  it("finds the example pages from the home page and the navigation", () => {
    expect(pages).toEqual(expect.arrayContaining(["/", "/slow", "/errors", "/errors/stream"]));
  });

  it("renders readable content: a title, a heading and text in the page's main region", async () => {
    const { page, context } = await openPage(browser(), { javaScriptEnabled: false });
    for (const path of pages) {
      const response = await page.goto(path);
      expect(response, path).not.toBeNull();
      expect(await page.title(), path).not.toBe("");
      const main = page.locator("main");
      await expect.poll(() => main.count(), { message: path }).toBe(1);
      const heading = main.locator("h1");
      expect(await heading.isVisible(), `${path}: visible h1`).toBe(true);
      expect((await heading.innerText()).trim(), `${path}: h1 text`).not.toBe("");
      const text = (await main.innerText()).trim();
      expect(text.length, `${path}: main text`).toBeGreaterThan(40);
      // Nothing of a failure's internals, even on the error examples.
      expect(text, path).not.toMatch(/^\s*at .+:\d+:\d+|node_modules|\/src\//m);
    }
    await context.close();
  });

  it("shows /slow's streamed section once it has arrived (where it arrived: moving it needs JavaScript)", async () => {
    const { page, context } = await openPage(browser(), { javaScriptEnabled: false });
    await page.goto("/slow");
    expect(await page.getByTestId("slow-value").isVisible()).toBe(true);
    expect(await page.getByTestId("slow-value").innerText()).toMatch(/^Arrived after \d+ ms/);
    await context.close();
  });

  it("submits the /echo form as a plain GET and shows the text back", async () => {
    const { page, context } = await openPage(browser(), { ...TEST_APP, javaScriptEnabled: false });
    await page.goto("/echo");
    await page.getByLabel("Text to echo").fill("</script><b>hello</b>");
    await page.getByRole("button", { name: "Echo it" }).click();
    await page.waitForURL(/\/echo\?text=/);
    expect(await page.getByTestId("echo-output").innerText()).toBe("</script><b>hello</b>");
    await context.close();
  });
});
