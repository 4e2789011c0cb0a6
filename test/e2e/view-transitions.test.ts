// Navigations as view transitions in Chromium against npm run preview: a client navigation runs in
// React's <ViewTransition> (the browser cross-fades the page), a plain link between documents in a
// cross-document one; with prefers-reduced-motion nothing moves; the announcer, focus and layout
// stay as they were.
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ingestControl, ingestEnvelopes, openPage, useBrowser } from "./support";
import { addLink, announced, focused, heading, location, openHome } from "./navigation-helpers";

const browser = useBrowser();

/**
 * Records, in every document of the page, each view transition the page starts (client) or the
 * browser starts for it (a cross-document one, seen on `pagereveal`), with the animations it ran.
 */
async function watchTransitions(page: Page) {
  await page.addInitScript(() => {
    const seen: { kind: string; animations: number }[] = [];
    Object.assign(window, { __transitions: seen });
    const watch = (kind: string, transition: ViewTransition) => {
      const record = { kind, animations: -1 };
      seen.push(record);
      transition.ready.then(
        () => {
          const ours = document
            .getAnimations()
            .filter((a) =>
              (a.effect as KeyframeEffect | null)?.pseudoElement?.startsWith("::view-transition"),
            );
          record.animations = ours.filter((a) => a.effect!.getTiming().duration !== 0).length;
        },
        () => (record.animations = 0),
      );
    };
    const start = document.startViewTransition.bind(document);
    document.startViewTransition = ((update?: ViewTransitionUpdateCallback) => {
      const transition = start(update);
      watch("client", transition);
      return transition;
    }) as typeof document.startViewTransition;
    addEventListener("pagereveal", (event) => {
      const transition = (event as Event & { viewTransition: ViewTransition | null }).viewTransition;
      if (transition) watch("document", transition);
    });
  });
}

const transitions = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __transitions: { kind: string; animations: number }[] }).__transitions,
  );

/**
 * What moved in this document's layout shifts: each source's element and its boxes before and
 * after. A view transition must add nothing here (the old and new pages are snapshots, not boxes).
 */
const shifts = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        type Shift = PerformanceEntry & {
          sources: { node: Node | null; previousRect: DOMRect; currentRect: DOMRect }[];
        };
        const describe = (entries: Shift[]) =>
          entries.flatMap((entry) =>
            entry.sources.map(({ node, previousRect: a, currentRect: b }) =>
              [
                node?.nodeName,
                (node as Element | null)?.className,
                a.x,
                a.y,
                a.width,
                a.height,
                b.x,
                b.y,
                b.width,
                b.height,
              ].join(" "),
            ),
          );
        new PerformanceObserver((list) => resolve(describe(list.getEntries() as Shift[]))).observe({
          type: "layout-shift",
          buffered: true,
        });
        setTimeout(() => resolve([]), 500); // no entry at all: nothing moved
      }),
  );

/** Takes view transitions away from the page: React then swaps pages without one. */
const withoutTransitions = (page: Page) =>
  page.addInitScript(() => delete (Document.prototype as Partial<Document>).startViewTransition);

/** From home to the page the main navigation names `name` (at `path`), by a click. */
async function navigateTo(page: Page, name: string, path: string) {
  await openHome(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name }).click();
  await expect.poll(() => heading(page)).toBe(name);
  expect(location(page)).toBe(path);
  await expect.poll(() => announced(page)).toBe(name);
  expect(await focused(page)).toBe("main");
}

const navigateToGuestbook = (page: Page) => navigateTo(page, "Guestbook", "/guestbook");

describe("view transitions", () => {
  it("cross-fade a client navigation, with the announcer, focus and layout as without them", async () => {
    // To /errors: a page whose content does not change (the guestbook's can between two visits,
    // its length with it), and longer than home's, so that its footer moves.
    const { page, context, problems } = await openPage(browser());
    await watchTransitions(page);
    await navigateTo(page, "Errors", "/errors");
    await expect.poll(async () => (await transitions(page)).map((t) => t.kind)).toEqual(["client"]);
    await expect.poll(async () => (await transitions(page))[0]!.animations).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    // The same navigation without view transitions moves the same boxes (the footer, under a longer page).
    const plain = await openPage(browser());
    await withoutTransitions(plain.page);
    await watchTransitions(plain.page);
    await navigateTo(plain.page, "Errors", "/errors");
    expect(await transitions(plain.page)).toEqual([]);
    const moved = await shifts(plain.page);
    expect(moved.map((shift) => shift.split(" ")[0])).toEqual(["FOOTER"]);
    expect(await shifts(page)).toEqual(moved);
    await plain.context.close();
    await context.close();
  });

  it("animate nothing with prefers-reduced-motion, and the navigation is otherwise the same", async () => {
    const { page, context, problems } = await openPage(browser(), { reducedMotion: "reduce" });
    await watchTransitions(page);
    await navigateToGuestbook(page);
    expect(await transitions(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("leave Back and Forward to swap pages in place, with no transition", async () => {
    const { page, context, problems } = await openPage(browser());
    await watchTransitions(page);
    await navigateToGuestbook(page);
    await expect.poll(async () => (await transitions(page)).length).toBe(1);
    await page.goBack();
    await expect.poll(() => heading(page)).not.toBe("Guestbook");
    expect(location(page)).toBe("/");
    await page.goForward();
    await expect.poll(() => heading(page)).toBe("Guestbook");
    expect((await transitions(page)).length).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("count a transition the browser skipped as no error: not logged, not reported", async () => {
    await ingestControl("reset");
    const { page, context, problems } = await openPage(browser());
    await watchTransitions(page);
    // The page's own transition (a theme toggle, say) begins as the navigation's does: the browser
    // skips the navigation's, and the page changes without the cross-fade.
    await page.addInitScript(() => {
      const start = document.startViewTransition.bind(document);
      let first = true;
      document.startViewTransition = ((update?: ViewTransitionUpdateCallback) => {
        const transition = start(update);
        if (first) queueMicrotask(() => start(() => {}));
        first = false;
        return transition;
      }) as typeof document.startViewTransition;
    });
    await openHome(page);
    await page.getByRole("link", { name: "Guestbook" }).first().click();
    // The navigation's was skipped: its `ready` rejected, and no animation of it ran.
    await expect.poll(async () => (await transitions(page)).length).toBe(2);
    await expect.poll(async () => (await transitions(page))[0]!.animations).toBe(0);
    await expect.poll(() => heading(page)).toBe("Guestbook");
    await expect.poll(() => announced(page)).toBe("Guestbook");
    // A report would have been on its way by now: the reporter sends at once.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(problems).toEqual([]);
    expect(await ingestEnvelopes()).toEqual([]);
    await context.close();
  });

  it("cross-fade a plain link to another page of the site (a document load), unless motion is reduced", async () => {
    for (const reducedMotion of ["no-preference", "reduce"] as const) {
      const { page, context } = await openPage(browser(), { reducedMotion });
      await watchTransitions(page);
      await openHome(page);
      // rel="external": the client router leaves it to the browser, as links work without JavaScript.
      await addLink(page, "/slow", "Slow, loaded in full");
      await page
        .locator("a", { hasText: "Slow, loaded in full" })
        .evaluate((a) => a.setAttribute("rel", "external"));
      await page.getByRole("link", { name: "Slow, loaded in full" }).click();
      await page.waitForURL("**/slow");
      await expect.poll(() => heading(page)).toBe("Slow");
      // The arriving document's own, and nothing else: its streamed section is revealed in place.
      if (reducedMotion === "reduce") expect(await transitions(page)).toEqual([]);
      else await expect.poll(async () => (await transitions(page)).map((t) => t.kind)).toEqual(["document"]);
      await context.close();
    }
  });
});
