// Pages for browser tests: a browser a test file borrows, a page in a context of its own whose
// every request carries the visitor's address, and what WebAuthn and the server's log need.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { CONNECTING_IP_HEADER } from "../../shared/visitor-limit";
import { launchBrowser, type LaunchOptions } from "./chromium";
import { startVisitorProxy, type VisitorProxy } from "./visitor-proxy";

/**
 * The browsers of this run, one per set of launch options. Browser files that run one at a time
 * in one worker borrow the same one instead of launching their own (a launch costs about 0.75
 * CPU-s). Playwright closes them as the worker exits.
 */
const launched = new Map<string, Promise<Browser>>();

/**
 * The browser of this run for `options`, launched at the first call. Not part of verge/test/browser:
 * the project's browser tests call it to launch Chromium while their servers start.
 */
export async function sharedBrowser(options: LaunchOptions): Promise<Browser> {
  const key = JSON.stringify(options);
  const browser = await launched.get(key);
  if (browser?.isConnected()) return browser;
  const fresh = launchBrowser(options);
  launched.set(key, fresh);
  return fresh;
}

/** The proxies of contexts not yet closed, or closed with requests still on their way. */
const openProxies = new Set<VisitorProxy>();

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

/**
 * `problems` without Chromium's "Failed to load resource" line for answers of `statuses`: what a
 * page shows when the server refuses on purpose (a form's 422, a guard's 403, a 404 page).
 */
export function unexpectedProblems(problems: readonly string[], ...statuses: number[]): string[] {
  const refused = statuses.map(
    (status) => `error: Failed to load resource: the server responded with a status of ${status} `,
  );
  return problems.filter((problem) => !refused.some((line) => problem.startsWith(line)));
}

let visitors = 0;

/**
 * A new page in its own context (`baseURL`: the preview's `url`); `javaScriptEnabled: false` to
 * see what works without JS. Each context is its own visitor (CF-Connecting-IP) unless
 * `extraHTTPHeaders` names one, so per-visitor limits are one test's alone. The address goes on
 * every request the context makes, through a proxy of its own (./visitor-proxy.ts), as
 * Cloudflare writes it: extraHTTPHeaders miss a page's last requests.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<ObservedPage> {
  const { [CONNECTING_IP_HEADER]: named, ...extraHTTPHeaders } = options.extraHTTPHeaders ?? {};
  ++visitors;
  const proxy = await startVisitorProxy(
    named ?? `10.99.${Math.floor(visitors / 250) % 250}.${visitors % 250}`,
  );
  const context = await browser.newContext({ ...options, extraHTTPHeaders, proxy: { server: proxy.server } });
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
 * The same server by name (`localhost`) instead of its IP address: WebAuthn refuses an IP
 * address as the relying party's id, and a test that needs a second origin of the same server
 * has one.
 */
export const byName = (url: string) => url.replace("//127.0.0.1", "//localhost");

/** The ray a document's answer named (Server-Timing), as the page itself reads it. */
export const documentRay = (page: Page) =>
  page.evaluate(
    () =>
      (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).serverTiming.find(
        (entry) => entry.name === "ray",
      )?.description,
  );
