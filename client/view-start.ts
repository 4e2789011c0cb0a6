// The router's word that a client navigation put a page on screen, for the Web Vitals collector
// (client/vitals-report.ts) to begin that page's view: the browser's own soft-navigation entries
// (Chromium 151 and later only) are not needed, so every browser reports every view.
const VIEW_EVENT = "verge:view";

export interface ClientView {
  /** The page's address, as the router showed it. */
  href: string;
  /** When the navigation began (the click), in ms from the document's time origin. */
  start: number;
}

/** Called by the router once a navigation's page is committed. */
export function announceView(view: ClientView): void {
  dispatchEvent(new CustomEvent(VIEW_EVENT, { detail: view }));
}

/** Called by the collector, which loads after the page is idle: views begun before then are not seen. */
export function onView(listener: (view: ClientView) => void): void {
  addEventListener(VIEW_EVENT, (event) => listener((event as CustomEvent<ClientView>).detail));
}
