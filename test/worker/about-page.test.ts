// docs/testing.md's workerd example, quoted there: a new page (the tests' app's /about) as visitors see it.
import { describe, expect, it } from "vitest";
import { serverLog, visitor } from "verge/test";
import worker from "../fixture-app/worker";

// A product's own test writes visitor(): the worker wrangler.toml names. /about is the tests' app's.
const newVisitor = () => visitor({ worker });

describe("/about", () => {
  it("shows the loader's data in the document and as page data", async () => {
    const ada = newVisitor();
    const page = await ada.get("/about?from=mail");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("42 visitors, this one from mail");
    const data = await ada.data("/about");
    expect(await data.json()).toMatchObject({ route: "/about", data: { visitors: 42, from: "nowhere" } });
  });

  it("answers the wave action as the page's script posts it, and logs it", async () => {
    const response = await newVisitor().action("/about", "wave", { name: "Ada" });
    expect(await response.json()).toMatchObject({ ok: true, result: { waved: "Ada" } });
    const [line] = await serverLog(response);
    expect(line).toMatchObject({ kind: "action", route: "/about", status: 200 });
  });
});
