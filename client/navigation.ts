// Document-level listeners, so pages keep using plain <a>: same-origin link clicks navigate
// client-side, intent (hover, focus, touch) prefetches, and Back/Forward re-render. A <Link>'s
// choices travel as attributes: `data-replace`, and `data-prefetch="none"` (no intent prefetch).
import type { Router } from "./router";
import { isOwn } from "./own-url";
import { initScroll } from "./scroll";

/** The same-origin page a link leads to, or null when the browser should handle it. */
export function linkTarget(target: EventTarget | null): URL | null {
  const link = target instanceof Element ? target.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement)) return null;
  if (
    (link.target && link.target !== "_self") ||
    link.hasAttribute("download") ||
    link.relList.contains("external")
  ) {
    return null;
  }
  const url = new URL(link.href);
  if (!isOwn(url)) return null;
  // A hash-only link scrolls within the page, as the browser does it.
  if (url.hash && url.pathname === location.pathname && url.search === location.search) return null;
  return url;
}

/** The link an event that linkTarget took came from. */
const linkOf = (target: EventTarget | null) => (target as Element).closest("a")!;

/** Call after hydration: React's own handlers then run first and may preventDefault. */
export function listen(router: Router): void {
  initScroll();
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const url = linkTarget(event.target);
    if (!url) return;
    event.preventDefault();
    void router.navigate(url.href, { replace: linkOf(event.target).hasAttribute("data-replace") });
  });
  const intent = (event: Event) => {
    const url = linkTarget(event.target);
    if (url && linkOf(event.target).dataset.prefetch !== "none") router.prefetch(url);
  };
  for (const type of ["pointerover", "focusin", "touchstart"]) {
    document.addEventListener(type, intent, { passive: true });
  }
  addEventListener("popstate", router.pop);
}
