// Scroll positions per history entry, kept across client navigations and full loads: the old
// spot on Back/Forward. Where a client navigation then scrolls and focuses is ./settle.ts (the
// router's chunk): only what the first paint needs is here.

type Position = [number, number];

/** Scroll positions by history entry key: popstate fires after the entry changed, so the left entry's state can no longer be written. */
const positions = new Map<string, Position>();
let current = "";
/** Where `positions` outlives the document: a full load away and Back (or a reload) reads it again. */
const STORED = "verge-scroll";

const state = (): { key?: string } => history.state ?? {};
const newKey = () => Math.random().toString(36).slice(2);

function keyEntry(): void {
  current = state().key ?? newKey();
  history.replaceState({ ...state(), key: current }, "");
}

/**
 * Scroll is ours to restore, in every case but the back/forward cache (the page comes back as
 * it was). Leaving writes sessionStorage, never history: a history change in `pagehide` keeps
 * Chromium from caching the page, and Back from another site would reload it.
 */
export function initScroll(): void {
  history.scrollRestoration = "manual";
  keyEntry();
  try {
    for (const [key, position] of JSON.parse(sessionStorage.getItem(STORED) ?? "[]"))
      positions.set(key, position);
  } catch {
    // no storage (or not ours): pages left in full start at the top
  }
  // Back, Forward or reload into this entry: where it was left, unless the visitor scrolled already.
  const saved = positions.get(current);
  if (saved && !scrollY) scrollTo(...saved);
  addEventListener("pagehide", () => {
    positions.set(current, [scrollX, scrollY]);
    try {
      sessionStorage.setItem(STORED, JSON.stringify([...positions].slice(-50)));
    } catch {}
  });
}

/** Before a push or replace: remember where this entry was, then make the new one current. */
export function pushEntry(href: string, replace: boolean): void {
  positions.set(current, [scrollX, scrollY]);
  current = newKey();
  history[replace ? "replaceState" : "pushState"]({ key: current }, "", href);
}

/** On popstate: the page on screen has not scrolled yet, so its spot is still readable. */
export function popEntry(): void {
  positions.set(current, [scrollX, scrollY]);
  keyEntry();
}

/** Where the history entry on screen was scrolled to when it was last left, if it was. */
export const savedPosition = (): Position | undefined => positions.get(current);
