// Web Vitals in Chromium against npm run preview: each view (a document load, a client navigation,
// a back/forward cache restore) reaches the fake ingest once it is left, as a transaction Sentry
// keeps whole, named by its route pattern and the ray of the answer it came from; never its URL.
// The fixture app's server runs with VITALS_SAMPLE_RATE "0": there nothing is loaded or sent.
import { beforeEach, describe, expect, inject, it } from "vitest";
import type { Page, Response } from "playwright-core";
import AxeBuilder from "@axe-core/playwright";
import { byName } from "verge/test/browser";
import {
  documentRay,
  ingestControl,
  logLines,
  openPage,
  pageFetches,
  TEST_APP,
  trackFetches,
  useBrowser,
  vitalsCollecting,
  vitalsEnvelopes,
} from "./support";
import type { RecordedEnvelope } from "../support/fake-ingest";
import { heading } from "./navigation-helpers";

const browser = useBrowser({ backForwardCache: true });
beforeEach(async () => {
  await ingestControl("reset");
});

/** The same server under another name: another site to the browser. */
const elsewhere = () => `${byName(inject("baseURL"))}/robots.txt`;

/** What a browser without soft-navigation entries shows a page (Chromium before 151, Firefox, Safari). */
const withoutSoftNavigations = () => {
  delete (globalThis as { PerformanceSoftNavigation?: unknown }).PerformanceSoftNavigation;
};

/** The tab hidden, as when the visitor switches away: the moment a view's figures are final. */
const hide = (page: Page) =>
  page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
  });

/** The ray a page-data answer named in its Server-Timing header. */
const answerRay = (response: Response) =>
  /ray;desc="([\w-]+)"/.exec(response.headers()["server-timing"] ?? "")?.[1];

const transactionOf = (envelope: RecordedEnvelope) =>
  envelope.items.find((item) => item.header.type === "transaction")!.payload as Record<string, any>;

/** The vitals reports received so far for `route` reached by `navigation`. */
async function reportsOf(route: string, navigation: string) {
  return (await vitalsEnvelopes()).filter(
    (envelope) =>
      transactionOf(envelope).transaction === route && transactionOf(envelope).tags.navigation === navigation,
  );
}

/** Everything a report must not carry: the page's address, its query, the visitor's address. */
function expectNoVisitorData(envelope: RecordedEnvelope, ...texts: string[]) {
  const body = Buffer.from(envelope.raw, "base64").toString("utf8");
  for (const text of [inject("baseURL"), "127.0.0.1:" + new URL(inject("baseURL")).port, "10.99.", ...texts])
    expect(body).not.toContain(text);
  expect(envelope.headers["x-sentry-forwarded-for"]).toBeUndefined();
}

describe("Web Vitals", () => {
  it("reports a page view once it is left: its route pattern, the document's ray, no URL", async () => {
    const { page, context } = await openPage(browser());
    await page.goto("/guestbook?page=1");
    const ray = await documentRay(page);
    expect(ray).toMatch(/^[0-9a-f]{16}$/);
    await vitalsCollecting(page);
    expect(await reportsOf("/guestbook", "navigate")).toEqual([]); // nothing before the view ends
    await page.goto(elsewhere());

    await expect.poll(async () => (await reportsOf("/guestbook", "navigate")).length).toBe(1);
    const [envelope] = await reportsOf("/guestbook", "navigate");
    const transaction = transactionOf(envelope!);
    expect(transaction.contexts.trace.op).toBe("pageload");
    expect(transaction.tags).toMatchObject({ route: "/guestbook", ray });
    expect(transaction.release).toBe(transaction.tags.build);
    expect(Object.keys(transaction.measurements).sort()).toEqual(["cls", "fcp", "lcp", "ttfb"]);
    expect(transaction.request).toEqual({ headers: { "User-Agent": expect.any(String) } });
    expectNoVisitorData(envelope!, "page=1", "?page");
    // The ray leads to the document's own log line (its phases, any digest); the relay logs the report.
    const lines = await logLines();
    expect(lines.filter((line) => line.ray === ray).map((line) => [line.kind, line.route])).toEqual([
      ["html", "/guestbook"],
    ]);
    // The relay writes its line once its answer is complete, a moment after the ingest has the envelope.
    const relayLines = async () =>
      (await logLines()).filter(
        (line) => line.kind === "relay" && line.event_id === envelope!.header.event_id,
      );
    await expect.poll(async () => (await relayLines()).length).toBe(1);
    const relayed = await relayLines();
    expect(relayed[0]!.vitals).toMatchObject({ route: "/guestbook", navigation: "navigate", ray });
    expect(JSON.stringify(relayed[0]!.vitals)).not.toContain("page=");
    await context.close();
  });

  /** Home, then a click to the guestbook, then the page left: both views reported, each once. */
  async function clientNavigation(page: Page) {
    await page.goto("/");
    await vitalsCollecting(page);
    const answer = page.waitForResponse((response) => response.request().headers()["x-page-data"] === "1");
    await page.getByRole("link", { name: "Guestbook" }).first().click();
    const ray = answerRay(await answer);
    expect(ray).toMatch(/^[0-9a-f]{16}$/);
    await expect.poll(() => heading(page)).toBe("Guestbook");
    // The home page's view ended with the navigation: it is reported without waiting for the page to go.
    await expect.poll(async () => (await reportsOf("/", "navigate")).length).toBe(1);
    await page.goto(elsewhere());

    await expect.poll(async () => (await reportsOf("/guestbook", "client")).length).toBe(1);
    const [envelope] = await reportsOf("/guestbook", "client");
    const transaction = transactionOf(envelope!);
    expect(transaction.contexts.trace.op).toBe("navigation");
    expect(transaction.tags).toMatchObject({ route: "/guestbook", ray });
    expect(transaction.measurements).toHaveProperty("fcp");
    expect(transaction.measurements).toHaveProperty("cls");
    expect(transaction.measurements).not.toHaveProperty("ttfb"); // its page-data request has its log line
    expectNoVisitorData(envelope!);
    expect(await reportsOf("/", "navigate")).toHaveLength(1); // each view once
  }

  it("reports a client navigation as a view of its own, with the page-data answer's ray", async () => {
    const { page, context } = await openPage(browser());
    await clientNavigation(page);
    await context.close();
  });

  it("reports a client navigation where the browser reports no soft navigations (Chromium < 151)", async () => {
    const { page, context } = await openPage(browser());
    await context.addInitScript(withoutSoftNavigations);
    await clientNavigation(page);
    await context.close();
  });

  // The reviewer's check, under both servers: home, a click to the guestbook, the tab hidden, then left.
  for (const server of ["preview", "dev"] as const)
    it(`reports both views once the tab is hidden, before it is left (npm run ${server})`, async () => {
      const baseURL = inject(server === "dev" ? "devURL" : "baseURL");
      const { page, context } = await openPage(browser(), { baseURL });
      await page.goto("/");
      await vitalsCollecting(page);
      await page.getByRole("link", { name: "Guestbook" }).first().click();
      await expect.poll(() => heading(page)).toBe("Guestbook");
      await hide(page);
      await expect.poll(async () => (await reportsOf("/guestbook", "client")).length).toBe(1);
      expect(await reportsOf("/", "navigate")).toHaveLength(1);
      await page.goto(`${byName(baseURL)}/robots.txt`);
      // Each view went once, when the tab was hidden: leaving adds none.
      expect(await reportsOf("/guestbook", "client")).toHaveLength(1);
      expect(await reportsOf("/", "navigate")).toHaveLength(1);
      await context.close();
    });

  it("reports a back/forward cache restore as a view of its own", async () => {
    const { page, context } = await openPage(browser());
    await page.goto("/guestbook");
    const ray = await documentRay(page);
    await vitalsCollecting(page);
    await page.evaluate(() =>
      addEventListener("pageshow", (event) => Object.assign(window, { __restored: event.persisted })),
    );
    await page.goto(elsewhere());
    await page.goBack({ waitUntil: "commit" });
    await expect.poll(() => page.evaluate(() => (window as { __restored?: boolean }).__restored)).toBe(true);
    await page.goto(elsewhere());

    await expect.poll(async () => (await reportsOf("/guestbook", "back-forward-cache")).length).toBe(1);
    const [envelope] = await reportsOf("/guestbook", "back-forward-cache");
    const transaction = transactionOf(envelope!);
    expect(transaction.tags).toMatchObject({ route: "/guestbook", ray });
    expect(transaction.measurements).toHaveProperty("fcp");
    expectNoVisitorData(envelope!);
    expect(await reportsOf("/guestbook", "navigate")).toHaveLength(1);
    await context.close();
  });

  it("adds nothing an accessibility scan finds", async () => {
    const { page, context } = await openPage(browser());
    await page.goto("/");
    await vitalsCollecting(page);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await context.close();
  });
});

describe("Web Vitals with sampling off (VITALS_SAMPLE_RATE 0)", () => {
  it("loads no collector, names no ray and sends nothing", async () => {
    const { page, context } = await openPage(browser(), TEST_APP);
    await trackFetches(page);
    const response = await page.goto("/twins/one");
    expect(response?.headers()["server-timing"] ?? "").not.toContain("ray;");
    expect(await page.locator("#__verge_page").textContent()).not.toContain('"vitals":');
    await page.getByRole("link", { name: "Go to twin two" }).click();
    await expect.poll(() => heading(page)).toBe("Twin two");
    // Idle twice over: a sampled page would have asked for the collector by now.
    for (let i = 0; i < 2; i++)
      await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    const loaded = await page.evaluate(() =>
      performance.getEntriesByType("resource").map((entry) => entry.name),
    );
    expect(loaded.filter((name) => name.includes("vitals"))).toEqual([]);
    expect((await pageFetches(page)).filter((call) => call.path === "/monitoring")).toEqual([]);
    await page.goto(`${inject("fixtureURL")}/robots.txt`);
    const twins = (await vitalsEnvelopes()).filter((envelope) =>
      transactionOf(envelope).transaction.startsWith("/twins"),
    );
    expect(twins).toEqual([]);
    await context.close();
  });
});
