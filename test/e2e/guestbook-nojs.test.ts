import { describe, expect, inject, it } from "vitest";
import { unexpectedProblems } from "verge/test/browser";
import { useBrowser, openPage } from "./support";

const browser = useBrowser();

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;

describe("guestbook without JavaScript", () => {
  it("signs with a plain form post, follows the 303 and shows the entry", async () => {
    const { page, context } = await openPage(browser(), { javaScriptEnabled: false });
    const statuses: number[] = [];
    page.on("response", (r) => {
      if (r.request().method() === "POST") statuses.push(r.status());
    });
    await page.goto("/guestbook");
    const name = unique("nojs");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Message").fill("Signed <without> JavaScript");
    await Promise.all([
      page.waitForURL("**/guestbook"),
      page.getByRole("button", { name: "Sign the guestbook" }).click(),
    ]);
    await page.waitForLoadState("load");
    expect(statuses).toEqual([303]);
    const entry = page.getByTestId("entry").filter({ hasText: name });
    await expect.poll(() => entry.count()).toBe(1);
    expect(await entry.locator(".entry-message").textContent()).toBe("Signed <without> JavaScript");
    // The form is fresh again: nothing typed is left over.
    expect(await page.getByLabel("Name").inputValue()).toBe("");
    await context.close();
  });

  it("posts the form key its hole brought, each visitor their own: the same post twice signs once", async () => {
    const keys: string[] = [];
    const posted: string[] = [];
    for (const visitor of ["first", "second"]) {
      const { page, context } = await openPage(browser(), { javaScriptEnabled: false });
      page.on("request", (r) => void (r.method() === "POST" && posted.push(r.postData() ?? "")));
      await page.goto("/guestbook");
      // The page's shell is shared; the key arrives in its hole, bound to the form by its id.
      const key = page.locator('input[type="hidden"][name="_key"]');
      expect(await key.count()).toBe(1);
      expect(await key.getAttribute("form")).toBe(await page.locator("form").getAttribute("id"));
      keys.push((await key.getAttribute("value"))!);
      if (visitor === "first") {
        await page.getByLabel("Name").fill(unique("twice"));
        await page.getByLabel("Message").fill("Sent twice, signed once");
        await Promise.all([
          page.waitForURL("**/guestbook"),
          page.getByRole("button", { name: "Sign the guestbook" }).click(),
        ]);
        // The same post again, as a browser's resubmission would send it.
        const again = await context.request.post("/guestbook", {
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: inject("baseURL") },
          data: posted[0]!,
          maxRedirects: 0,
        });
        expect(again.status()).toBe(303);
        const name = new URLSearchParams(posted[0]!).get("name")!;
        await page.goto("/guestbook");
        await expect.poll(() => page.getByTestId("entry").filter({ hasText: name }).count()).toBe(1);
      }
      await context.close();
    }
    expect(new URLSearchParams(posted[0]!).get("_key")).toBe(keys[0]);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it("shows errors next to the fields and keeps the typed values, with status 422", async () => {
    const { page, context, problems } = await openPage(browser(), { javaScriptEnabled: false });
    await page.goto("/guestbook");
    const message = unique("kept message");
    // Spaces pass the browser's `required` check; the server trims them and refuses.
    await page.getByLabel("Name").fill("   ");
    await page.getByLabel("Message").fill(message);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "POST"),
      page.getByRole("button", { name: "Sign the guestbook" }).click(),
    ]);
    expect(response.status()).toBe(422);
    await page.waitForLoadState("load");
    const nameInput = page.getByLabel("Name");
    expect(await nameInput.getAttribute("aria-invalid")).toBe("true");
    const describedBy = await nameInput.getAttribute("aria-describedby");
    expect(await page.locator(`#${describedBy}`).textContent()).toBe("Name is required.");
    expect(await page.getByLabel("Message").inputValue()).toBe(message);
    expect(await page.getByTestId("entry").filter({ hasText: message }).count()).toBe(0);
    // Chromium logs the refused post; the helper a product's test uses leaves that line alone out.
    expect(problems).toEqual([expect.stringMatching(/^error: Failed to load resource: .* status of 422 /)]);
    expect(unexpectedProblems(problems, 422)).toEqual([]);
    expect(unexpectedProblems(problems, 400, 42)).toEqual(problems);
    await context.close();
  });
});
