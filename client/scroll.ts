// Scroll and focus around client navigations: the top of a new page, the old spot on
// Back/Forward (kept per history entry), a #hash target, and focus on the main content.

type Position = [number, number];
interface EntryState {
  key?: string;
  scroll?: Position;
}

/** Scroll positions by history entry key: popstate fires after the entry changed, so the left entry's state can no longer be written. */
const positions = new Map<string, Position>();
let current = "";

const state = (): EntryState => (history.state as EntryState | null) ?? {};
const newKey = () => Math.random().toString(36).slice(2);

function keyEntry(): void {
  current = state().key ?? newKey();
  history.replaceState({ ...state(), key: current }, "");
}

/** Client navigations restore scroll themselves; full loads (reload, bfcache) leave it to the browser. */
export function initScroll(): void {
  history.scrollRestoration = "manual";
  keyEntry();
  addEventListener("pagehide", () => {
    history.replaceState({ ...state(), scroll: [scrollX, scrollY] }, "");
    history.scrollRestoration = "auto";
  });
  addEventListener("pageshow", () => (history.scrollRestoration = "manual"));
}

/** Before a push or replace: remember where this entry was, then make the new one current. */
export function pushEntry(href: string, replace: boolean): void {
  positions.set(current, [scrollX, scrollY]);
  if (!replace) history.replaceState({ ...state(), scroll: [scrollX, scrollY] }, "");
  current = newKey();
  history[replace ? "replaceState" : "pushState"]({ key: current }, "", href);
}

/** On popstate: the page on screen has not scrolled yet, so its spot is still readable. */
export function popEntry(): void {
  positions.set(current, [scrollX, scrollY]);
  keyEntry();
}

/** After the new page rendered: focus its main content, then scroll where it belongs. */
export function settle(hash: string, restore: boolean): void {
  document.getElementById("main")?.focus({ preventScroll: true });
  const saved = restore ? (positions.get(current) ?? state().scroll) : undefined;
  let id = hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // a malformed escape: look the id up as written
  }
  const target = id ? document.getElementById(id) : null;
  if (saved) scrollTo(saved[0], saved[1]);
  else if (target) target.scrollIntoView();
  else scrollTo(0, 0);
}
