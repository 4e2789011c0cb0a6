// Web Vitals' first-paint part: decides whether this page load is measured (the server's rate) and,
// if so, loads the collector (client/vitals-report.ts) once the page is idle; and keeps which page
// each client navigation showed, for the collector to name a view the browser reports later.
import type { PageData } from "../src/shared/protocol";

/** What a client navigation showed: its route pattern and the ray of the answer it came from. */
export interface ShownView {
  route: string | null;
  ray?: string;
}

const shown = new Map<string, ShownView>();
/** Views are told apart by path and query: a #hash moves within the page. */
const keyOf = (href: string) => {
  const url = new URL(href, location.href);
  return url.pathname + url.search;
};

/** The router calls this as it shows a page at `href`. */
export function viewShown(href: string, view: ShownView): void {
  const key = keyOf(href);
  shown.delete(key);
  shown.set(key, view);
  if (shown.size > 50) shown.delete(shown.keys().next().value!);
}

/** The view last shown at `href` by a client navigation, if any. */
export const shownView = (href: string): ShownView | undefined => shown.get(keyOf(href));

/** Call once hydrated: nothing loads unless the page data asks for vitals and this load is sampled. */
export function startVitals(page: PageData): void {
  const rate = page.vitals;
  if (!rate || Math.random() >= rate) return;
  const load = () => {
    import("./vitals-report").then((collector) => collector.collect(page)).catch(() => {});
  };
  // After the load event, when the main thread is idle: never in the way of the first paint.
  const idle = () =>
    "requestIdleCallback" in window ? requestIdleCallback(load, { timeout: 5000 }) : setTimeout(load);
  if (document.readyState === "complete") idle();
  else addEventListener("load", idle, { once: true });
}
