// Error fallbacks and reporting in Chromium against npm run preview, with the fake ingest behind /monitoring.
import { beforeEach, describe, expect, it } from "vitest";
import AxeBuilder from "@axe-core/playwright";
import {
  gotoExplained,
  ingestControl,
  ingestEnvelopes,
  useBrowser,
  logLines,
  openPage,
  pageFetches,
  pageTurn,
  throwClientError,
  trackFetches,
} from "./support";
import { CLIENT_ERROR_TEXT, SERVER_ERROR_TEXT } from "../../src/shared/error-views";
import { eventOf } from "../support/envelope";

const control = ingestControl;
const envelopes = ingestEnvelopes;

const browser = useBrowser();
beforeEach(async () => {
  await control("reset");
});

describe("client render failure", () => {
  it("shows the client fallback with Reload and Back, and sends one envelope through /monitoring", async () => {
    const { page, context } = await openPage(browser());
    await trackFetches(page);
    const relayed = async () =>
      (await pageFetches(page)).filter((call) => call.path === "/monitoring").map((call) => call.status);
    await page.goto("/errors");
    const fallback = await throwClientError(page);
    await expect.poll(() => fallback.locator("h1").textContent()).toBe(CLIENT_ERROR_TEXT);
    expect(await fallback.getByRole("button", { name: "Reload" }).isVisible()).toBe(true);
    expect(await fallback.getByRole("button", { name: "Back" }).isVisible()).toBe(true);
    // The fallback replaces the layout: it must still be an accessible page, with its own <main>.
    expect(await page.locator("main").count()).toBe(1);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

    await expect.poll(async () => (await envelopes()).length).toBe(1);
    // The one report's answer has come back; a second (duplicate) one would have been sent by then.
    await expect.poll(relayed).toEqual([200]);
    await pageTurn(page);
    expect(await relayed()).toEqual([200]);
    const all = await envelopes();
    expect(all).toHaveLength(1);
    const event = eventOf(all[0]!)!;
    const exception = event.exception.values[0];
    expect(exception.type).toBe("Error");
    expect(exception.value).toBe("Client render failed on purpose (the throw-client button)");
    expect(exception.stacktrace.frames.length).toBeGreaterThan(0);
    expect(exception.stacktrace.frames.at(-1).filename).toContain("/assets/");
    const relayLine = (await logLines()).findLast((line) => line.kind === "relay" && !line.vitals);
    expect(relayLine).toMatchObject({ status: 200, project: "1", event_id: all[0]!.header.event_id });
    await context.close();
  });
});

describe("server failure", () => {
  it("/errors/loader shows a digest equal to the Sentry event's digest tag and the log line's digest", async () => {
    const { page, context } = await openPage(browser());
    const response = await page.goto("/errors/loader");
    expect(response?.status()).toBe(500);
    expect(await page.locator("h1").textContent()).toBe(SERVER_ERROR_TEXT);
    const digest = await page.getByTestId("digest").textContent();
    expect(digest).toMatch(/^[0-9a-z]{8,16}$/);
    await expect.poll(async () => (await envelopes()).map((e) => eventOf(e)?.tags?.digest)).toContain(digest);
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
    const { page, context, problems } = await openPage(browser());
    await trackFetches(page);
    const response = await gotoExplained(page, "/errors/stream");
    expect(response?.status()).toBe(200);
    const section = page.getByTestId("route-error");
    await expect.poll(() => section.isVisible()).toBe(true);
    expect(await section.getByTestId("digest").textContent()).toMatch(/^[0-9a-z]{8,16}$/);
    expect(await page.locator("h1").textContent()).toBe("Stream error");
    expect(await page.getByTestId("app-error").count()).toBe(0);
    await page.waitForLoadState("networkidle");
    expect(problems).toEqual([]);
    // Already reported by the server; the browser sends nothing of its own (nor has it tried).
    await pageTurn(page);
    expect((await pageFetches(page)).filter((call) => call.path === "/monitoring")).toEqual([]);
    const fromBrowser = (await envelopes()).filter(
      (e) => e.header.sdk && (e.header.sdk as { name: string }).name === "verge.reporter",
    );
    expect(fromBrowser).toEqual([]);
    await context.close();
  });
});
