import { describe, expect, it } from "vitest";
import { PAGE_DATA_SCRIPT_ID } from "../../src/shared/protocol";
import { mainText, request, scriptsAndLinks } from "./html";

describe("an unknown path", () => {
  it("answers 404 with the not-found page inside the site layout", async () => {
    const response = await request("/no/such/page");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain("<title>Page not found</title>");
    // The layout: skip link, the main navigation, the footer, and the page in <main>.
    expect(html).toContain('<a class="skip-link" href="#main">Skip to content</a>');
    expect(html).toMatch(/<nav aria-label="Main">[\s\S]*<a href="\/">Home<\/a>/);
    expect(html).toContain('<footer class="site-footer">');
    expect(mainText(html)).toBe("Page not found There is no page at this address. Go to the home page");
  });

  it("embeds page data with no route and status 404, so the browser hydrates the same page", async () => {
    const html = await (await request("/missing")).text();
    const script = (await scriptsAndLinks(html)).find((el) => el.attributes.id === PAGE_DATA_SCRIPT_ID);
    expect(JSON.parse(script!.text)).toMatchObject({ route: null, status: 404, title: "Page not found" });
  });

  it("treats empty path segments as unknown, not as the page without them", async () => {
    for (const path of ["//", "/slow//", "//slow", "/errors//loader"]) {
      const response = await request(path);
      expect(response.status, path).toBe(404);
      expect(mainText(await response.text()), path).toContain("Page not found");
    }
  });

  it("still serves a page whose address ends in one slash", async () => {
    const response = await request("/errors/");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("<h1>Errors</h1>");
  });
});
