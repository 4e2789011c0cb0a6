// Helpers for the project's browser tests: verge/test/browser's pages on the servers the global
// setup started (global-setup.ts), the fake ingest, and what the page itself fetched.
import type { Browser, BrowserContextOptions, Page, Request, Response } from "playwright-core";
import { expect, inject } from "vitest";
import { openPage as openVisitorPage, readLogLines, type ObservedPage } from "verge/test/browser";
import type { RecordedEnvelope } from "../support/fake-ingest";
import { VITALS_KEY } from "../../src/shared/vitals";

export {
  CHROMIUM_PATH,
  documentRay,
  launchBrowser,
  useBrowser,
  type LaunchOptions,
  type ObservedPage,
} from "verge/test/browser";

/** Options that point a page at the tests' own app (test/fixture-app) instead of the product. */
export const TEST_APP = {
  get baseURL() {
    return inject("fixtureURL");
  },
};

/** A new page in a context of its own visitor, on the product's preview unless `baseURL` says otherwise (verge/test/browser). */
export const openPage = (browser: Browser, options: BrowserContextOptions = {}): Promise<ObservedPage> =>
  openVisitorPage(browser, { baseURL: inject("baseURL"), ...options });

/**
 * page.goto, and when it fails (a `load` that never came: once on CI, for /errors/stream), an
 * error that says what the page was waiting for: every request with its response and end, in
 * milliseconds from the start, the document's readyState and the end of its HTML.
 */
export async function gotoExplained(page: Page, url: string) {
  const started = Date.now();
  const timeline: string[] = [];
  const note = (what: string) => timeline.push(`${String(Date.now() - started).padStart(6)} ms  ${what}`);
  const listeners = {
    request: (r: Request) => note(`request ${r.method()} ${r.url()}`),
    response: (r: Response) => note(`response ${r.status()} ${r.url()}`),
    requestfinished: (r: Request) => note(`finished ${r.url()}`),
    requestfailed: (r: Request) => note(`failed ${r.url()}: ${r.failure()?.errorText}`),
    domcontentloaded: () => note("DOMContentLoaded"),
    load: () => note("load"),
  };
  for (const [event, listener] of Object.entries(listeners)) page.on(event as "load", listener as () => void);
  try {
    return await page.goto(url);
  } catch (error) {
    const state = await page.evaluate(() => document.readyState).catch(String);
    const tail = await page
      .content()
      .then((html) => html.slice(-1000))
      .catch(String);
    throw new Error(
      `${(error as Error).message}\nreadyState: ${state}\ntimeline:\n${timeline.join("\n")}\nend of the document:\n${tail}`,
    );
  } finally {
    for (const [event, listener] of Object.entries(listeners))
      page.off(event as "load", listener as () => void);
  }
}

/** The worker's JSON log lines printed by `npm run preview` so far. */
export const logLines = () => readLogLines(inject("logFile"));

/** Calls the fake Sentry ingest's control API (`reset`, `mode?mode=rate-limit`, `envelopes`, `stats`). */
export async function ingestControl(path: string): Promise<unknown> {
  const response = await fetch(`${inject("ingestURL")}/__control/${path}`);
  return response.json();
}

const isVitals = (envelope: RecordedEnvelope) => VITALS_KEY in envelope.header;

/**
 * Waits until the collector listens (once the page is idle): views left before that go
 * unreported. Built, it is a hashed chunk; under `npm run dev`, its source module. Its fetch is
 * not enough: a page can be left between the chunk's arrival and the collector's start, a gap
 * that grows on a busy machine. The page's own import() of the same module settles once it has
 * run, and starts the collector in a reaction to that; the task after ours comes after both.
 */
export async function vitalsCollecting(page: Page) {
  const chunk = await page.waitForFunction(
    () =>
      performance
        .getEntriesByType("resource")
        .find((entry) => /\/vitals-report(-[\w-]+\.js|\.ts)(\?|$)/.test(entry.name))?.name,
  );
  // A string: vitest would rewrite an import() written in a function.
  const url = JSON.stringify(await chunk.jsonValue());
  await page.evaluate(`import(${url}).then(() => new Promise((resolve) => setTimeout(resolve, 0)))`);
}

/** Every error report the fake ingest accepted since the last reset (Web Vitals reports left out). */
export const ingestEnvelopes = async () =>
  ((await ingestControl("envelopes")) as RecordedEnvelope[]).filter((envelope) => !isVitals(envelope));

/** Every Web Vitals report the fake ingest accepted since the last reset. */
export const vitalsEnvelopes = async () =>
  ((await ingestControl("envelopes")) as RecordedEnvelope[]).filter(isVitals);

/**
 * On /errors, clicks "throw a client error" until React answers with the fallback: clicks before
 * hydration do nothing. Returns the fallback.
 */
export async function throwClientError(page: Page) {
  const fallback = page.getByTestId("app-error");
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
  return fallback;
}

/** One fetch() the page made, as the page itself saw it. */
export interface PageFetch {
  method: string;
  /** Path and query. */
  path: string;
  pageData: boolean;
  /** The answer's status once it came; null while pending or when it failed. */
  status: number | null;
  settled: boolean;
}

/**
 * Records every fetch() the page makes, inside the page, as it is called: unlike network events,
 * what `pageFetches` reads includes every call made before it, so "no further request" can be
 * checked at once instead of after a wait. Also counts the page's uncaught errors.
 */
export async function trackFetches(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const calls: PageFetch[] = [];
    const seen = { errors: 0 };
    Object.assign(window, { __fetches: calls, __seen: seen });
    addEventListener("error", () => seen.errors++);
    const original = window.fetch;
    window.fetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
      const request = input instanceof globalThis.Request ? input : null;
      const url = new URL(request?.url ?? String(input), location.href);
      const headers = new Headers(init?.headers ?? request?.headers);
      const call: PageFetch = {
        method: (init?.method ?? request?.method ?? "GET").toUpperCase(),
        path: url.pathname + url.search,
        pageData: headers.has("X-Page-Data"),
        status: null,
        settled: false,
      };
      calls.push(call);
      return original.call(this, input, init).then(
        (response) => Object.assign(call, { status: response.status, settled: true }) && response,
        (error: unknown) => {
          call.settled = true;
          throw error;
        },
      );
    };
  });
}

/** The fetches the page has made so far (trackFetches must have been set up before it loaded). */
export function pageFetches(page: Page): Promise<PageFetch[]> {
  return page.evaluate(() => (window as unknown as { __fetches: PageFetch[] }).__fetches);
}

/** How many uncaught errors the page has seen (trackFetches). */
export function pageErrorCount(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __seen: { errors: number } }).__seen.errors);
}

/**
 * Lets the page finish what it is doing now: one task later, every handler of events already
 * dispatched and every promise job they started has run.
 */
export function pageTurn(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve)));
}
