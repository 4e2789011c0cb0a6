// Focus and scroll after a client navigation: focus on the new page's main content, then the
// top of the page, the old spot on Back/Forward (./scroll.ts keeps it), or a #hash target.
import { savedPosition } from "./scroll";

/** After the new page rendered: focus its main content, then scroll where it belongs. */
export function settle(hash: string, restore: boolean): void {
  document.getElementById("main")?.focus({ preventScroll: true });
  const saved = restore ? savedPosition() : undefined;
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
