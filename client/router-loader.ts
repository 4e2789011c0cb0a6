// The client router, loaded on the first sign of navigation (a link hovered, focused, touched or
// clicked; a form sent; Back): a first paint carries only what hydration needs.
import type { SubmitOutcome } from "../src/shared/router-context";
import type { PageState, Router, RouterDeps } from "./router";
import { setActiveRouter } from "../src/shared/navigation-state";

/** What the browser would have done without JavaScript: post the form itself. */
function postNatively(form: HTMLFormElement): Promise<SubmitOutcome> {
  form.submit();
  return new Promise(() => {}); // the page is leaving
}

/**
 * A Router whose every call loads the real one first; when it cannot load, the browser does the
 * work. It is the page's router from now on (`navigate()` outside components uses it).
 */
export function deferredRouter(initial: PageState, deps: RouterDeps): Router {
  // The page on screen now, at hydration: by the time the router loads, Back may have moved on.
  const shown = location.href;
  let loading: Promise<Router> | undefined;
  const load = () =>
    (loading ??= import("./router").then(
      (module) => module.createRouter(initial, deps, shown),
      (error: unknown) => {
        loading = undefined; // offline for now: the next intent tries again
        throw error;
      },
    ));
  const router: Router = {
    navigate: (href, options) =>
      load().then(
        (router) => router.navigate(href, options),
        () => location.assign(href),
      ),
    showPage: (page, options) => load().then((router) => router.showPage(page, options)),
    submit: (form, actionName, options) =>
      load()
        .then((router) => router.submit(form, actionName, options))
        .catch(() => postNatively(form)),
    fetcher: () => load().then((router) => router.fetcher()),
    prefetch: (url) =>
      void load().then(
        (router) => router.prefetch(url),
        () => {},
      ),
    revalidate: () =>
      load().then(
        (router) => router.revalidate(),
        () => location.reload(),
      ),
    pop: () =>
      void load().then(
        (router) => router.pop(),
        () => location.reload(),
      ),
  };
  setActiveRouter(router);
  return router;
}
