// The client router: loads a page's data and chunk in parallel, renders it in a transition,
// and falls back to a full page load whenever it cannot (network, another build, a chunk).
import { addTransitionType, startTransition } from "react";
import type { RouteMatch } from "../src/shared/match-route";
import { NAVIGATION_TRANSITION } from "../src/shared/page-transition";
import { STATUS, VIEW_EVENT, type PageData, type ViewStart } from "../src/shared/protocol";
import type { ClientRouter } from "../src/shared/router-context";
import type { RouteModule } from "../src/shared/route-module";
import type { LayoutModule, MountedLayout } from "../src/shared/layouts";
import { prefetch, requestPage, takePrefetched, clearPrefetched, type Answer } from "./prefetch";
import { announcement, currentHeading } from "./announcer";
import { popEntry, pushEntry } from "./scroll";
import { settle } from "./settle";
import { startProgress, stopProgress } from "./progress";
import { isOwn } from "./own-url";
import { loadLayoutsView } from "./layouts-view";
import { keptData, keptLayouts } from "./kept-layouts";
import { discover, knowLine } from "./discovery";
import {
  currentNavigation,
  IDLE,
  setNavigation,
  type NavigationLocation,
} from "../src/shared/navigation-state";

export interface PageState {
  page: PageData;
  module: RouteModule | null;
  /** The layouts around the page, outermost first. */
  layouts: MountedLayout[];
}

export interface RouterDeps {
  /** Sets the page to render (the router calls it in a transition); settles once committed. */
  show(state: PageState): Promise<void>;
  /** Sets the route announcer's text. */
  announce(text: string): void;
}

export interface Router extends ClientRouter {
  /** Back/Forward: the browser already changed the URL. */
  pop(): void;
}

/**
 * push/replace/pop change pages; "stay" re-renders the page on screen (after an action, or its
 * data loaded again: a revalidation).
 */
type Mode = "push" | "replace" | "pop" | "stay";

export const ERROR_TITLE = "Error";

/** `href` as a navigation's location (useNavigation). */
function locationOf(href: string): NavigationLocation {
  const { pathname, search, hash } = new URL(href, location.href);
  return { pathname, search, hash };
}

const samePage = (a: URL, b: URL) => a.pathname === b.pathname && a.search === b.search;

/** `shownHref`: the address of the page on screen (the router may load after Back changed it). */
export function createRouter(initial: PageState, deps: RouterDeps, shownHref: string): Router {
  const { build } = initial.page;
  let controller: AbortController | undefined;
  let shown = new URL(shownHref);
  knowLine(shown.pathname, initial.page.line);
  /** The page on screen: the one hydrated, then each the router shows. */
  let onScreen = initial;
  /** Actions answered so far, and how many had been when the layouts on screen were loaded. */
  let actions = 0;
  let layoutsAsOf = 0;

  /**
   * Whatever an action answered, it may have changed any page: nothing loaded before it is shown
   * after it (a redirect's target, a link hovered, the layouts on screen).
   */
  function afterAction(): void {
    clearPrefetched();
    actions++;
  }

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
      committed = deps.show((onScreen = state));
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
    const asOf = actions;
    const revalidation = mode === "stay" && !given;
    // A <Form>'s submission goes on loading the page after it. The page on screen shown again (a
    // revalidation, a fetcher's answer) is no navigation.
    const submitting = currentNavigation().state === "submitting" && currentNavigation();
    setNavigation(
      mode === "stay" && !submitting
        ? currentNavigation()
        : { ...submitting, state: "loading", location: locationOf(url.href) },
      revalidation,
    );
    startProgress();
    try {
      // Going to a path no route matches, or whose route cannot be known now, loads it in full (a
      // not-found page on screen is still shown again); so does an endpoint (robots.txt, a JSON
      // API), which is no page: the browser loads it itself.
      const match = await discover(url.pathname, build);
      if (current.signal.aborted) return;
      if (match?.route.kind === "endpoint" || (!match && mode !== "stay")) return fullLoad(url, mode);
      const chain = match?.route.layouts ?? [];
      let answer: Answer;
      let module: RouteModule | undefined;
      let layouts: LayoutModule[];
      try {
        // The chunks and the data load in parallel; a prefetched answer is used once.
        const data = given
          ? { page: given }
          : revalidation
            ? requestPage(url, build, current.signal)
            : (takePrefetched(url) ?? requestPage(url, build, current.signal, kept(match)));
        [, answer, module, ...layouts] = await Promise.all([
          chain.length > 0 && loadLayoutsView(),
          data,
          match?.route.load(),
          ...chain.map((layout) => layout.load()),
        ]);
      } catch (error) {
        if (!current.signal.aborted) fullLoad(url, mode);
        return;
      }
      if (current.signal.aborted) return;
      // An action answered meanwhile: this answer may be older than what it changed.
      if (!given && asOf !== actions) return go(url.href, mode, undefined, began);
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
      // A page whose loader failed still needs its module: it may have an ErrorView of its own.
      const needsModule = page.route !== null;
      if (needsModule && page.route !== match?.route.path) return fullLoad(url, mode);
      const withLayouts =
        chain.length > 0 && page.route !== null ? keptData(onScreen.page, page, match!.params, chain) : page;
      // A layout the answer left out whose data is no longer on screen: the document has it all.
      if (withLayouts === null) return fullLoad(url, mode);
      const before = currentHeading();
      // A new history entry is a page the visitor goes to: it cross-fades in.
      const toAnother = mode === "push" || mode === "replace";
      if (toAnother) pushEntry(url.href, mode === "replace");
      shown = url;
      const mountedLayouts = chain.map((layout, i) => ({ id: layout.id, module: layouts[i]! }));
      await render(
        { page: withLayouts, module: needsModule ? module! : null, layouts: mountedLayouts },
        toAnother,
      );
      layoutsAsOf = Math.max(layoutsAsOf, asOf);
      if (mode === "stay" || current !== controller) return;
      // Another page on screen: a view of its own for Web Vitals, whether or not they are measured.
      dispatchEvent(
        new CustomEvent<ViewStart>(VIEW_EVENT, {
          detail: { href: url.href, route: page.route, start: began },
        }),
      );
      settle(url.hash, mode === "pop");
      deps.announce(announcement(before, url.pathname));
    } finally {
      if (current === controller) {
        stopProgress();
        // Every other navigation was aborted; a <Form> sending meanwhile is still sending.
        const now = currentNavigation();
        setNavigation(now.state === "submitting" ? now : IDLE, false);
      }
    }
  }

  /** The layouts a navigation keeps; after an action none, until a page brings them anew. */
  const kept = (match: RouteMatch<RouteModule> | null) =>
    layoutsAsOf < actions ? [] : keptLayouts(onScreen.page, match);

  return {
    navigate: (href, options) => go(href, options?.replace ? "replace" : "push"),
    showPage(page, options) {
      clearPrefetched();
      const url = new URL(options?.url ?? location.href, location.href);
      const mode = samePage(url, shown) ? "stay" : options?.replace ? "replace" : "push";
      return go(url.href, mode, page);
    },
    // Loaded on the first submission: most pages have no form, and every page loads this module.
    async submit(form, actionName, options) {
      const navigates = options?.navigate !== false;
      if (navigates) {
        const { pathname, search } = locationOf(form.action);
        setNavigation({
          state: "submitting",
          location: locationOf(form.action),
          formData: new FormData(form),
          formAction: pathname + search,
          formMethod: "POST",
        });
      }
      const outcome = await (await import("./form-submit")).submitForm(form, actionName, build);
      afterAction();
      // A success or a redirect goes on to load a page; anything else leaves this one as it is.
      if (navigates && outcome.kind !== "success" && outcome.kind !== "redirect") setNavigation(IDLE);
      return outcome;
    },
    revalidate: () => go(location.href, "stay"),
    fetcher: async () => {
      const transport = (await import("./fetcher")).fetcherTransport(build);
      // A fetcher's action is an action too: nothing loaded before its answer is shown after it.
      return { ...transport, post: (...args) => transport.post(...args).finally(afterAction) };
    },
    prefetch(url) {
      void discover(url.pathname, build).then((match) => {
        if (!match || match.route.kind === "endpoint") return;
        prefetch(url, build, kept(match));
        for (const load of [match.route.load, ...(match.route.layouts ?? []).map((layout) => layout.load)]) {
          load().catch(() => {});
        }
      });
    },
    pop() {
      popEntry();
      const url = new URL(location.href);
      // A hash-only change within the page on screen is the browser's to handle.
      if (!samePage(url, shown)) void go(url.href, "pop");
    },
  };
}
