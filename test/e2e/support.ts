// Helpers for browser tests: Debian's Chromium through playwright-core, console capture, log lines.
import { readFile } from "node:fs/promises";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type Request,
  type Response,
} from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";
import type { RecordedEnvelope } from "../support/fake-ingest";
import { CHROMIUM_PATH } from "../support/chromium";
import { VITALS_KEY } from "../../src/shared/vitals";
import { CONNECTING_IP_HEADER } from "../../src/shared/visitor-limit";
import { startVisitorProxy, type VisitorProxy } from "./visitor-proxy";

export { CHROMIUM_PATH };

export interface LaunchOptions {
  /** Keep Chromium's back/forward cache, which playwright turns off by default. */
  backForwardCache?: boolean;
}

/**
 * Features Chromium runs for nobody here. Headless Chromium gives each new page a window of its
 * own (playwright opens each context's pages so), and Chromium 156 preloads two WebUI pages for
 * that window's address bar popup: two more renderers per page, which nobody sees. Measured on 2
 * cores (20 contexts, a page each): 11.4 CPU-s without them, 6.5 with, the wall time 6.1 s to 4.0 s.
 */
const UNUSED_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"];

/**
 * What playwright-core 1.65 turns off itself (its chromiumSwitches, less its Windows and Edge
 * ones): a second --disable-features replaces the first, so ours must repeat them.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  "AimEnabled",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsFirstBalancedModeAutoEnable",
  "HttpsUpgrades",
  "LensOverlay",
  "MediaRouter",
  "NetworkTimeServiceQuerying",
  "OptimizationHints",
  "PaintHolding",
  "PreconnectToSearch",
  "ThirdPartyStoragePartitioning",
];

/** A fresh browser (playwright gives each launch an empty user-data dir). */
export function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    ignoreDefaultArgs: options.backForwardCache ? ["--disable-back-forward-cache"] : undefined,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_FEATURES].join(",")}`,
    ],
  });
}

/**
 * The browsers of this run, one per set of launch options. The browser files run one at a time in
 * one worker (vitest.config.ts), so each file borrows the same one instead of launching its own
 * (a launch costs about 0.75 CPU-s). Playwright closes them as the worker exits.
 */
const launched = new Map<string, Promise<Browser>>();

async function sharedBrowser(options: LaunchOptions): Promise<Browser> {
  const key = JSON.stringify(options);
  const browser = await launched.get(key);
  if (browser?.isConnected()) return browser;
  const fresh = launchBrowser(options);
  launched.set(key, fresh);
  return fresh;
}

/**
 * A browser for the calling test file, from beforeAll on. Each test opens contexts of its own (no
 * cookie, storage or cache is shared between contexts); whatever the file leaves open is closed
 * after its tests, as if the browser were its alone.
 */
export function useBrowser(options: LaunchOptions = {}): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await sharedBrowser(options);
  });
  afterAll(async () => {
    await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
    // What the closed pages sent as they closed (a Web Vitals report) ends before the next file.
    await Promise.all([...openProxies].map((proxy) => proxy.close()));
  });
  return () => {
    if (!browser) throw new Error("useBrowser(): the browser is launched in beforeAll; call it inside tests");
    return browser;
  };
}

export interface ObservedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and warnings, and uncaught page errors, in order. */
  problems: string[];
}

/** Options that point a page at the tests' own app (test/fixture-app) instead of the product. */
export const TEST_APP = {
  get baseURL() {
    return inject("fixtureURL");
  },
};

let visitors = 0;
/** The proxies of contexts not yet closed, or closed with requests still on their way. */
const openProxies = new Set<VisitorProxy>();

/**
 * A new page in its own context; `javaScriptEnabled: false` to see what works without JS. Each
 * context is its own visitor (CF-Connecting-IP) unless the options name one: the per-visitor limits
 * (the relay's, which every page's Web Vitals count toward, the guestbook's) are one test's alone.
 * The address goes on every request the context makes, through a proxy of its own
 * (./visitor-proxy.ts), as Cloudflare writes it: extraHTTPHeaders miss a page's last requests.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<ObservedPage> {
  const { [CONNECTING_IP_HEADER]: named, ...extraHTTPHeaders } = options.extraHTTPHeaders ?? {};
  ++visitors;
  const proxy = await startVisitorProxy(
    named ?? `10.99.${Math.floor(visitors / 250) % 250}.${visitors % 250}`,
  );
  const context = await browser.newContext({
    baseURL: inject("baseURL"),
    ...options,
    extraHTTPHeaders,
    proxy: { server: proxy.server },
  });
  openProxies.add(proxy);
  context.on("close", () => void proxy.close().then(() => openProxies.delete(proxy)));
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") {
      problems.push(`${message.type()}: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  return { page, context, problems };
}

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
export async function logLines(): Promise<Record<string, unknown>[]> {
  const text = await readFile(inject("logFile"), "utf8");
  return text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return null;
      }
    })
    .filter((line): line is Record<string, unknown> => line !== null);
}

/** Calls the fake Sentry ingest's control API (`reset`, `mode?mode=rate-limit`, `envelopes`, `stats`). */
export async function ingestControl(path: string): Promise<unknown> {
  const response = await fetch(`${inject("ingestURL")}/__control/${path}`);
  return response.json();
}

const isVitals = (envelope: RecordedEnvelope) => VITALS_KEY in envelope.header;

/** The ray a document's answer named (Server-Timing), as the page itself reads it. */
export const documentRay = (page: Page) =>
  page.evaluate(
    () =>
      (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).serverTiming.find(
        (entry) => entry.name === "ray",
      )?.description,
  );

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
