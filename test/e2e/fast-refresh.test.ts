// React Fast Refresh under `npm run dev`, in Chromium: edits to the project's copy that
// `npm run dev` serves (test/e2e/global-setup.ts) show in the open page without a reload, and
// what the page holds (a counter's state, typed text) stays. Each test restores what it edited.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterEach, describe, expect, inject, it } from "vitest";
import { openPage, useBrowser } from "./support";
import { heading, untilHomeHydrated } from "./navigation-helpers";

const browser = useBrowser();
const devURL = inject("devURL");
const devRoot = inject("devRoot");

/** Text typed into a field before an edit, which the edit must leave there. */
const TYPED = "typed before the edit";

const edited = new Map<string, string>();

/** Rewrites `file` (relative to the served copy) with `change`; afterEach puts it back. */
async function edit(file: string, change: (source: string) => string) {
  const full = path.join(devRoot, file);
  const source = await readFile(full, "utf8");
  if (!edited.has(full)) edited.set(full, source);
  const next = change(source);
  expect(next, `the edit of ${file} changes it`).not.toBe(source);
  await writeFile(full, next);
}

/** The page file each path the tests open is served by. */
const PAGES: Record<string, string> = {
  "/": "src/app/pages/home.tsx",
  "/guestbook": "src/app/pages/guestbook.tsx",
  "/slow": "src/app/pages/slow.tsx",
};

/**
 * Whether `at` is served with `text` (by the worker) and its page module with `code`, when given
 * (by Vite, to the browser): a save reaches the two one after the other.
 */
async function servedWhole(text: string, at = "/", code?: string): Promise<boolean> {
  const html = await (await fetch(`${devURL}${at}`)).text();
  if (!html.includes(text)) return false;
  if (code === undefined) return true;
  const module = await fetch(`${devURL}/${PAGES[at]}`);
  return module.status === 200 && (await module.text()).includes(code);
}

const untilServedWhole = (text: string, at = "/", code?: string) =>
  expect.poll(() => servedWhole(text, at, code), { timeout: 30_000, interval: 250 }).toBe(true);

afterEach(async () => {
  for (const [file, source] of edited) await writeFile(file, source);
  edited.clear();
  // The served pages are back as they were before the next test opens one.
  await untilServedWhole("<h1>verge</h1>");
  await untilServedWhole("Sign the guestbook</h2>", "/guestbook");
});

/** The home page, hydrated, its counter clicked to 3, and a mark only this document has. */
async function openCountedHome(page: Page) {
  await untilServedWhole("<h1>");
  await page.goto("/");
  await untilHomeHydrated(page);
  const counter = page.getByTestId("counter");
  await expect
    .poll(async () => {
      if ((await counter.textContent()) !== "Clicked 3 times") await counter.click();
      return counter.textContent();
    })
    .toBe("Clicked 3 times");
  await page.evaluate(() => Object.assign(window, { __document: "first" }));
}

const sameDocument = (page: Page) => page.evaluate(() => (window as { __document?: string }).__document);

/** What openCountedHome set up is still there: the counter's count, in the first document (no reload). */
async function expectHomeStateKept(page: Page) {
  expect(await page.getByTestId("counter").textContent()).toBe("Clicked 3 times");
  expect(await sameDocument(page)).toBe("first");
}

/**
 * /guestbook, once React owns its form (typed text counts from then: hydration would otherwise
 * keep it anyway), with a mark only this document has.
 */
async function openHydratedGuestbook(page: Page) {
  await untilServedWhole("Sign the guestbook</h2>", "/guestbook");
  await page.goto("/guestbook");
  await page.waitForFunction(() =>
    Object.keys(document.querySelector("form[method=post]") ?? {}).some((key) =>
      key.startsWith("__reactProps"),
    ),
  );
  await page.evaluate(() => Object.assign(window, { __document: "first" }));
}

/** openCountedHome on a home page given a "Note" field, with TYPED typed into it. */
async function openHomeWithTypedNote(page: Page) {
  // The document and the client code it names both have the field, or hydration would drop it.
  await untilServedWhole('name="note"', "/", 'name: "note"');
  await openCountedHome(page);
  await page.getByLabel("Note").fill(TYPED);
}

/** After an edit: the text typed by openHomeWithTypedNote, and the home page's state, are kept. */
async function expectTypedNoteAndStateKept(page: Page) {
  expect(await page.getByLabel("Note").inputValue()).toBe(TYPED);
  await expectHomeStateKept(page);
}

describe("npm run dev with Fast Refresh", () => {
  it("updates an edited component in place: the counter keeps its count, with no reload", async () => {
    const { page, context, problems } = await openPage(browser(), { baseURL: devURL });
    await openCountedHome(page);
    await edit("src/app/pages/home.tsx", (source) =>
      source.replace("<h1>verge</h1>", "<h1>verge, edited</h1>"),
    );
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe("verge, edited");
    await expectHomeStateKept(page);
    // The update comes once the dev server serves the new chunks: the page asks for none in vain.
    expect(problems).toEqual([]);
    await context.close();
  });

  it("keeps typed text in a form when its page is edited", async () => {
    const { page, context } = await openPage(browser(), { baseURL: devURL });
    // A form the page itself renders (the next test edits one made by formFor).
    const withForm = (title: string) => (source: string) =>
      source.replace(
        "<h1>verge</h1>",
        `<h1>${title}</h1><form><label>Note <input name="note" /></label></form>`,
      );
    await edit("src/app/pages/home.tsx", withForm("verge"));
    await openHomeWithTypedNote(page);
    await edit("src/app/pages/home.tsx", () => withForm("verge, edited")(edited.values().next().value!));
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe("verge, edited");
    await expectTypedNoteAndStateKept(page);
    await context.close();
  });

  it("updates an edited layout in place: the page's counter and typed text stay, with no reload", async () => {
    const { page, context, problems } = await openPage(browser(), { baseURL: devURL });
    await edit("src/app/pages/home.tsx", (source) =>
      source.replace(
        "<h1>verge</h1>",
        '<h1>verge</h1><form><label>Note <input name="note" /></label></form>',
      ),
    );
    await openHomeWithTypedNote(page);
    await edit("src/app/layout.tsx", (source) =>
      source.replace("<p>verge: React on Cloudflare Workers.</p>", "<p>verge, with an edited layout.</p>"),
    );
    await expect
      .poll(() => page.locator(".site-footer").textContent(), { timeout: 30_000 })
      .toBe("verge, with an edited layout.");
    await expectTypedNoteAndStateKept(page);
    expect(problems.filter((problem) => !problem.includes("404 (Not Found)"))).toEqual([]);
    await context.close();
  });

  it("updates a component two pages share in place: the counter and typed text stay, with no reload", async () => {
    const { page, context, problems } = await openPage(browser(), { baseURL: devURL });
    // The slow page and the failing stream's page share StreamedSection; home renders it here too.
    await edit("src/app/pages/home.tsx", (source) =>
      source
        .replace(
          'import { useState } from "react";',
          'import { useState } from "react";\nimport { StreamedSection } from "../streamed-section";',
        )
        .replace(
          "<h1>verge</h1>",
          '<h1>verge</h1><StreamedSection id="shared-heading" heading="Shared" fallback={null}>' +
            '<form><label>Note <input name="note" /></label></form></StreamedSection>',
        ),
    );
    await openHomeWithTypedNote(page);
    await edit("src/app/streamed-section.tsx", (source) =>
      source.replace(
        "<h2 id={props.id}>{props.heading}</h2>",
        "<h2 id={props.id}>{props.heading}, edited</h2>",
      ),
    );
    await expect
      .poll(() => page.locator("#shared-heading").textContent(), { timeout: 30_000 })
      .toBe("Shared, edited");
    await expectTypedNoteAndStateKept(page);
    expect(problems.filter((problem) => !problem.includes("404 (Not Found)"))).toEqual([]);
    // The other pages that share it have it too.
    await untilServedWhole(", edited</h2>", "/slow");
    await context.close();
  });

  it("keeps typed text in the guestbook's form (made by formFor) when the guestbook is edited, and checks with the edited schema", async () => {
    const { page, context, problems } = await openPage(browser(), { baseURL: devURL });
    const posts: string[] = [];
    page.on("request", (request) => void (request.method() === "POST" && posts.push(request.url())));
    await openHydratedGuestbook(page);
    await page.getByLabel("Name").fill("Ada, typed before the edit");
    await page.getByLabel("Message").fill("A message typed before the edit");
    // Visible text, and the schema given to formFor: the refreshed form checks with the new one.
    await edit("src/app/pages/guestbook.tsx", (source) =>
      source
        .replace("Sign the guestbook</h2>", "Sign the guestbook, edited</h2>")
        .replace('label: "Message",', 'label: "Your message",'),
    );
    await expect
      .poll(() => page.locator("#sign-heading").textContent(), { timeout: 30_000 })
      .toBe("Sign the guestbook, edited");
    expect(await page.getByLabel("Name").inputValue()).toBe("Ada, typed before the edit");
    expect(await page.getByLabel("Message").inputValue()).toBe("A message typed before the edit");
    expect(await sameDocument(page)).toBe("first");
    // Blank to the schema, not to the browser's own `required` check.
    await page.getByLabel("Message").fill("  ");
    await page.getByRole("button", { name: "Sign the guestbook" }).click();
    await expect
      .poll(() => page.locator(".field-error").allTextContents())
      .toEqual(["Your message is required."]);
    expect(posts, "the browser checked the form itself").toEqual([]);
    expect(problems.filter((problem) => !problem.includes("404 (Not Found)"))).toEqual([]);
    await context.close();
  });

  it("swaps an edited stylesheet without a reload", async () => {
    const { page, context } = await openPage(browser(), { baseURL: devURL });
    await openCountedHome(page);
    await edit("src/app/styles.css", (source) => `${source}\nh1 { letter-spacing: 7px; }\n`);
    await expect
      .poll(() => page.locator("h1").evaluate((h1) => getComputedStyle(h1).letterSpacing), {
        timeout: 30_000,
      })
      .toBe("7px");
    await expectHomeStateKept(page);
    await context.close();
  });

  it("shows a loader's new data after the loader is edited, keeping the page's state", async () => {
    const { page, context } = await openPage(browser(), { baseURL: devURL });
    const withLoader = (note: string) => (source: string) =>
      source
        .replace(/\nexport async function loader\(\) \{[^\n]*\n/, "\n")
        .replace(
          "export default function Home(_: PageProps) {",
          `export async function loader() { return { note: "${note}" }; }\n` +
            "export default function Home({ data }: PageProps<{ note: string }>) {",
        )
        .replace("<h1>verge</h1>", '<h1>verge</h1><p data-testid="note">{data.note}</p>');
    await edit("src/app/pages/home.tsx", withLoader("the first note"));
    await untilServedWhole("the first note", "/", "data.note");
    await openCountedHome(page);
    await edit("src/app/pages/home.tsx", () => withLoader("the second note")(edited.values().next().value!));
    await expect
      .poll(() => page.getByTestId("note").textContent(), { timeout: 30_000 })
      .toBe("the second note");
    await expectHomeStateKept(page);
    await context.close();
  });

  it("refetches the page's data in place when a *.server.ts module its loader reads is edited", async () => {
    const { page, context, problems } = await openPage(browser(), { baseURL: devURL });
    await openHydratedGuestbook(page);
    const count = page.locator("#main .count");
    const before = Number(/\d+/.exec((await count.textContent()) ?? "")![0]);
    // Code the browser never loads: only the worker runs it.
    await edit("src/app/db/guestbook.server.ts", (source) =>
      source.replace(
        "return { entries, total: (count!.results[0] as { total: number }).total };",
        "return { entries, total: (count!.results[0] as { total: number }).total + 1000 };",
      ),
    );
    await expect.poll(() => count.textContent(), { timeout: 30_000 }).toBe(`(${before + 1000})`);
    expect(await sameDocument(page)).toBe("first");
    expect(problems).toEqual([]);
    await context.close();
  });

  /** Breaks home.tsx's heading; returns the overlay, once it names the file and line. */
  async function breakHome(page: Page) {
    const source = await readFile(path.join(devRoot, "src/app/pages/home.tsx"), "utf8");
    const line = source.split("\n").findIndex((text) => text.includes("<h1>verge</h1>")) + 1;
    await edit("src/app/pages/home.tsx", (text) => text.replace("<h1>verge</h1>", "<h1>verge</h2>"));
    // Vite's error overlay, over the page (its text is in its shadow root).
    const overlay = page.locator("vite-error-overlay");
    await expect
      .poll(() => overlay.evaluateAll((found) => found.map((el) => el.shadowRoot?.textContent).join("")), {
        timeout: 30_000,
      })
      .toContain(`src/app/pages/home.tsx:${line}`);
    return overlay;
  }

  it("shows a syntax error over the page, naming the file and line, and clears it once fixed", async () => {
    const { page, context } = await openPage(browser(), { baseURL: devURL });
    await openCountedHome(page);
    const overlay = await breakHome(page);
    await edit("src/app/pages/home.tsx", (text) => text.replace("<h1>verge</h2>", "<h1>verge, fixed</h1>"));
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe("verge, fixed");
    await expect.poll(() => overlay.count()).toBe(0);
    await expectHomeStateKept(page);
    await context.close();
  });

  it("clears a syntax error's overlay when the fix restores the file's exact earlier text (an editor's undo)", async () => {
    const { page, context } = await openPage(browser(), { baseURL: devURL });
    await openCountedHome(page);
    const overlay = await breakHome(page);
    await edit("src/app/pages/home.tsx", () => edited.values().next().value!);
    await expect.poll(() => overlay.count(), { timeout: 30_000 }).toBe(0);
    await expect.poll(() => heading(page), { timeout: 30_000 }).toBe("verge");
    await expectHomeStateKept(page);
    await context.close();
  });
});
