// Error fallbacks and reporting in Chromium against wrangler dev, with the fake ingest behind /monitoring.
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser, logLines, openPage } from "./support";
import { CLIENT_ERROR_TEXT, SERVER_ERROR_TEXT } from "../../src/error-views";
import { eventOf } from "../support/envelope";
import type { RecordedEnvelope } from "../support/fake-ingest";

const ingest = inject("ingestURL");
const control = async (path: string) => (await fetch(`${ingest}/__control/${path}`)).json();
const envelopes = () => control("envelopes") as Promise<RecordedEnvelope[]>;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  await control("reset");
});

describe("client render failure", () => {
  it("shows the client fallback with Reload and Back, and sends one envelope through /monitoring", async () => {
    const { page, context } = await openPage(browser);
    const relayed: number[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/monitoring") relayed.push(response.status());
    });
    await page.goto("/errors");
    const fallback = page.getByTestId("app-error");
    // Clicks before hydration do nothing: click until React answers with the fallback.
    await expect
      .poll(async () => {
        if (await fallback.isVisible()) return true;
        await page
          .getByTestId("throw-client")
          .click({ timeout: 1000 })
          .catch(() => {});
        return fallback.isVisible();
      })
      .toBe(true);
    await expect.poll(() => fallback.locator("h1").textContent()).toBe(CLIENT_ERROR_TEXT);
    expect(await fallback.getByRole("button", { name: "Reload" }).isVisible()).toBe(true);
    expect(await fallback.getByRole("button", { name: "Back" }).isVisible()).toBe(true);

    await expect.poll(async () => (await envelopes()).length, { timeout: 10_000 }).toBe(1);
    await page.waitForTimeout(1000); // a second (duplicate) report would arrive by now
    const all = await envelopes();
    expect(all).toHaveLength(1);
    expect(relayed).toEqual([200]);
    const event = eventOf(all[0]!)!;
    const exception = event.exception.values[0];
    expect(exception.type).toBe("Error");
    expect(exception.value).toBe("Client render failed on purpose (the throw-client button)");
    expect(exception.stacktrace.frames.length).toBeGreaterThan(0);
    expect(exception.stacktrace.frames.at(-1).filename).toContain("/assets/");
    const relayLine = (await logLines()).findLast((line) => line.kind === "relay");
    expect(relayLine).toMatchObject({ status: 200, project: "1", event_id: all[0]!.header.event_id });
    await context.close();
  });
});

describe("hydration mismatch", () => {
  it("is reported through /monitoring and not shown", async () => {
    const { page, context } = await openPage(browser);
    // The server's HTML is altered on the way, so the browser's first render differs from it.
    await page.route("**/errors", async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace("<h1>Errors</h1>", "<h1>Errorz</h1>");
      await route.fulfill({ response, body: html });
    });
    await page.goto("/errors");
    await expect.poll(async () => (await envelopes()).length, { timeout: 10_000 }).toBe(1);
    const exception = eventOf((await envelopes())[0]!)!.exception.values[0];
    expect(exception.mechanism.type).toBe("react.recoverable");
    // Production React names the error by code: #418 is a hydration mismatch.
    expect(exception.value).toMatch(/React error #418|hydrat/i);
    expect(await page.locator("h1").textContent()).toBe("Errors");
    expect(await page.getByTestId("app-error").count()).toBe(0);
    await context.close();
  });
});

describe("server failure", () => {
  it("/errors/loader shows a digest equal to the Sentry event's digest tag and the log line's digest", async () => {
    const { page, context } = await openPage(browser);
    const response = await page.goto("/errors/loader");
    expect(response?.status()).toBe(500);
    expect(await page.locator("h1").textContent()).toBe(SERVER_ERROR_TEXT);
    const digest = await page.getByTestId("digest").textContent();
    expect(digest).toMatch(/^[0-9a-z]{8,16}$/);
    await expect
      .poll(async () => (await envelopes()).map((e) => eventOf(e)?.tags?.digest), { timeout: 10_000 })
      .toContain(digest);
    await expect
      .poll(async () =>
        (await logLines()).filter((line) => line.path === "/errors/loader").map((l) => l.digest),
      )
      .toContain(digest);
    await context.close();
  });
});

describe("failure inside a Suspense boundary", () => {
  it("/errors/stream keeps status 200, shows the error view in place, and the page hydrates without errors", async () => {
    const { page, context, problems } = await openPage(browser);
    const response = await page.goto("/errors/stream");
    expect(response?.status()).toBe(200);
    const section = page.getByTestId("route-error");
    await expect.poll(() => section.isVisible()).toBe(true);
    expect(await section.getByTestId("digest").textContent()).toMatch(/^[0-9a-z]{8,16}$/);
    expect(await page.locator("h1").textContent()).toBe("Stream error");
    expect(await page.getByTestId("app-error").count()).toBe(0);
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
    // Already reported by the server; the browser sends nothing of its own.
    await page.waitForTimeout(500);
    const fromBrowser = (await envelopes()).filter(
      (e) => e.header.sdk && (e.header.sdk as { name: string }).name === "verge.reporter",
    );
    expect(fromBrowser).toEqual([]);
    await context.close();
  });
});

describe("browser reporter limits", () => {
  /** Throws `count` uncaught errors in the page (each from its own timer, as a real bug would). */
  const throwInPage = (page: import("playwright-core").Page, messages: string[]) =>
    page.evaluate((list) => {
      for (const message of list)
        setTimeout(() => {
          throw new Error(message);
        });
    }, messages);

  async function openErrorsPage() {
    const observed = await openPage(browser);
    const posts: string[] = [];
    observed.page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/monitoring") posts.push(request.url());
    });
    await observed.page.goto("/errors");
    await observed.page.waitForFunction(() => document.querySelector("#__verge_page") !== null);
    return { ...observed, posts };
  }

  it("stops reporting after a 429 from the ingest", async () => {
    await control("mode?mode=rate-limit");
    const { page, context, posts } = await openErrorsPage();
    await throwInPage(page, ["first failure"]);
    await expect.poll(() => posts.length).toBe(1);
    await page.waitForTimeout(500); // the 429 answer has been read
    await throwInPage(page, ["second failure", "third failure"]);
    await page.waitForTimeout(1000);
    expect(posts).toHaveLength(1);
    await context.close();
  });

  it("sends the same error once and at most 10 reports per page view", async () => {
    const { page, context, posts } = await openErrorsPage();
    await throwInPage(
      page,
      Array.from({ length: 14 }, (_, i) => `failure ${i % 12}`),
    );
    await expect.poll(() => posts.length).toBe(10);
    await page.waitForTimeout(1000);
    expect(posts).toHaveLength(10);
    await expect.poll(async () => (await envelopes()).length).toBe(10);
    await context.close();
  });
});
