// The client router: loads a page's data and chunk in parallel, renders it in a transition,
// and falls back to a full page load whenever it cannot (network, another build, a chunk).
import { addTransitionType, startTransition } from "react";
import { matchRoute } from "../src/shared/routing";
import { NAVIGATION_TRANSITION } from "../src/shared/page-transition";
import { STATUS, VIEW_EVENT, type PageData, type ViewStart } from "../src/shared/protocol";
import type { ClientRouter } from "../src/shared/router-context";
import type { RouteModule, RouteTable } from "../src/shared/route-module";
import { prefetch, requestPage, takePrefetched, clearPrefetched, type Answer } from "./prefetch";
import { announcement, currentHeading } from "./announcer";
import { popEntry, pushEntry } from "./scroll";
import { settle } from "./settle";
import { startProgress, stopProgress } from "./progress";
import { isOwn } from "./own-url";

export interface PageState {
  page: PageData;
  module: RouteModule | null;
}

export interface RouterDeps {
  /** Sets the page to render (the router calls it in a transition); settles once committed. */
  show(state: PageState): Promise<void>;
  /** Sets the route announcer's text. */
  announce(text: string): void;
}

export interface Router extends ClientRouter {
  prefetch(url: URL): void;
  /** Back/Forward: the browser already changed the URL. */
  pop(): void;
}

/** push/replace/pop change pages; "stay" re-renders the page on screen (after an action). */
type Mode = "push" | "replace" | "pop" | "stay";

export const ERROR_TITLE = "Error";

const samePage = (a: URL, b: URL) => a.pathname === b.pathname && a.search === b.search;

/** `shownHref`: the address of the page on screen (the router may load after Back changed it). */
export function createRouter(routes: RouteTable, build: string, deps: RouterDeps, shownHref: string): Router {
  let controller: AbortController | undefined;
  let shown = new URL(shownHref);

  /**
   * Renders the page in a transition: the old page stays on screen until the new one is ready.
   * Going to another page (`toAnother`) cross-fades in a view transition (the layout's
   * PageTransition), unless the visitor asked for less motion.
   */
  function render(state: PageState, toAnother: boolean): Promise<void> {
    let committed!: Promise<void>;
    startTransition(() => {
      if (toAnother && !matchMedia("(prefers-reduced-motion: reduce)").matches) {
        addTransitionType(NAVIGATION_TRANSITION);
      }
      committed = deps.show(state);
    });
    return committed;
  }

  function fullLoad(url: URL, mode: Mode): void {
    if (mode === "pop" || mode === "stay") location.reload();
    else if (mode === "replace") location.replace(url);
    else location.assign(url);
  }

  /** `began`: when the visitor asked for the page (a redirect keeps the first request's). */
  async function go(href: string, mode: Mode, given?: PageData, began = performance.now()): Promise<void> {
    const url = new URL(href, location.href);
    if (!isOwn(url)) {
      // Another site loads in full, as a link to it would; anything but http(s) is never navigated to.
      if (!/^https?:$/.test(url.protocol)) throw new TypeError(`Not navigating to a ${url.protocol} URL`);
      return location.assign(url);
    }
    // Following a link to the address on screen replaces the entry, as browsers do.
    if (mode === "push" && url.href === location.href) mode = "replace";
    controller?.abort();
    const current = (controller = new AbortController());
    startProgress();
    try {
      const match = matchRoute(routes, url.pathname);
      let answer: Answer;
      let module: RouteModule | undefined;
      try {
        // The chunk and the data load in parallel; a prefetched answer is used once.
        const data = given
          ? { page: given }
          : (takePrefetched(url) ?? requestPage(url, build, current.signal));
        [answer, module] = await Promise.all([data, match?.route.load()]);
      } catch (error) {
        if (!current.signal.aborted) fullLoad(url, mode);
        return;
      }
      if (current.signal.aborted) return;
      if (answer === null) return fullLoad(url, mode);
      if ("redirect" in answer) {
        // The server redirects within its origin only: anything else is not followed, and the
        // requested URL's document (whose own redirect the browser follows, or not) decides.
        let to: URL | undefined;
        try {
          to = new URL(answer.redirect, url);
        } catch {}
        return to && isOwn(to)
          ? go(to.href, mode === "push" ? "push" : "replace", undefined, began)
          : fullLoad(url, mode);
      }
      const page: PageData =
        "page" in answer
          ? answer.page
          : {
              route: match?.route.path ?? null,
              params: match?.params ?? {},
              data: null,
              title: ERROR_TITLE,
              head: [],
              build,
              status: STATUS.serverError,
              error: answer.error,
            };
      const needsModule = page.route !== null && !page.error;
      if (needsModule && page.route !== match?.route.path) return fullLoad(url, mode);
      const before = currentHeading();
      // A new history entry is a page the visitor goes to: it cross-fades in.
      const toAnother = mode === "push" || mode === "replace";
      if (toAnother) pushEntry(url.href, mode === "replace");
      shown = url;
      await render({ page, module: needsModule ? module! : null }, toAnother);
      if (mode === "stay" || current !== controller) return;
      // Another page on screen: a view of its own for Web Vitals, whether or not they are measured.
      dispatchEvent(new CustomEvent<ViewStart>(VIEW_EVENT, { detail: { href: url.href, start: began } }));
      settle(url.hash, mode === "pop");
      deps.announce(announcement(before, url.pathname));
    } finally {
      if (current === controller) stopProgress();
    }
  }

  return {
    navigate: (href, options) => go(href, options?.replace ? "replace" : "push"),
    showPage(page, options) {
      clearPrefetched();
      const url = new URL(options?.url ?? location.href, location.href);
      const mode = samePage(url, shown) ? "stay" : options?.replace ? "replace" : "push";
      return go(url.href, mode, page);
    },
    // Loaded on the first submission: most pages have no form, and every page loads this module.
    submit: async (form, actionName) => (await import("./form-submit")).submitForm(form, actionName, build),
    prefetch(url) {
      prefetch(url, build);
      matchRoute(routes, url.pathname)
        ?.route.load()
        .catch(() => {});
    },
    pop() {
      popEntry();
      const url = new URL(location.href);
      // A hash-only change within the page on screen is the browser's to handle.
      if (!samePage(url, shown)) void go(url.href, "pop");
    },
  };
}
