// Development only (`npm run dev`; scripts/build-client.mjs adds it to the entry of a dev build,
// never to a production one): React Fast Refresh. It hooks react-refresh's runtime into React
// before React loads, registers the components the build's transform marks (and those formFor
// makes, which it cannot see), and follows the dev server's events: new component code is
// imported and refreshed in place (state kept), a new stylesheet is swapped in, new server code
// refetches the page's data, a build error is shown.
import RefreshRuntime from "react-refresh/runtime";
import type { Router } from "../router";
import { requestPage } from "../prefetch";
import { PAGE_DATA_SCRIPT_ID } from "../../src/shared/protocol";
import { hideBuildError, showBuildError } from "./build-error";
import { FAST_REFRESH_HOOK, type RefreshMade } from "../../src/shared/fast-refresh-hook";

/** Where `npm run dev` sends its events (an EventSource URL), set by the dev build. */
declare const __VERGE_DEV_EVENTS__: string;

RefreshRuntime.injectIntoGlobalHook(window);

/** Components the runtime's factories made (formFor) since the transform last registered one. */
const made: { type: unknown; name: string }[] = [];
const onMade: RefreshMade = (type, name) => void made.push({ type, name });
Object.assign(globalThis, { [FAST_REFRESH_HOOK]: onMade });

/** What the transform's `$RefreshReg$` calls: `id` is the file and the component's name in it. */
export function register(type: unknown, id: string): void {
  // The transform registers a module's components at its end: what a factory made meanwhile was
  // made at the top of this module (or of one it imports that has no component of its own), so
  // it gets an id of this file, the same each time the module runs again.
  const file = id.slice(0, id.lastIndexOf(" "));
  made
    .splice(0)
    .forEach((component, index) =>
      RefreshRuntime.register(component.type, `${file} ${component.name}#${index}`),
    );
  RefreshRuntime.register(type, id);
}

/** What the transform's `$RefreshSig$` calls: tracks a component's hooks, to know if state can stay. */
export const signature = RefreshRuntime.createSignatureFunctionForTransform;

/** An update from the dev server (scripts/dev-events.mjs). */
type DevEvent =
  | { type: "refresh"; chunks: string[] }
  | { type: "css"; href: string }
  | { type: "reload" }
  | { type: "server" }
  | { type: "error"; file: string | null; line: number | null; message: string }
  | { type: "ok" };

/**
 * Waits until `href` is served. The dev server sends an update once the worker serves its build
 * (scripts/dev-live.mjs), but gives up waiting after a while (a worker that fails to build), and
 * an import that fails once is not tried again.
 */
async function untilServed(href: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const response = await fetch(href, { method: "HEAD", cache: "no-store" }).catch(() => null);
    if (response?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${href} was never served`);
}

/** The stylesheet of the build, swapped for `href` once the new one has loaded (no flash). */
async function swapStylesheet(href: string): Promise<void> {
  await untilServed(href);
  const old = document.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href^="/assets/"]');
  if (!old) return location.reload();
  const next = old.cloneNode() as HTMLLinkElement;
  next.href = href;
  next.addEventListener("load", () => old.remove(), { once: true });
  old.parentNode?.insertBefore(next, old.nextSibling);
}

/** The page's data again, shown in place: what a loader edit changes. */
async function refetchData(): Promise<void> {
  const router = (globalThis as { __vergeRouter?: Router }).__vergeRouter;
  // A development build's id never changes (scripts/build-client.mjs): the first page's is current.
  const build = JSON.parse(document.getElementById(PAGE_DATA_SCRIPT_ID)?.textContent ?? "{}").build ?? "";
  const answer = router ? await requestPage(new URL(location.href), build).catch(() => null) : null;
  if (router && answer && "page" in answer) await router.showPage(answer.page, { url: location.href });
  else location.reload();
}

/**
 * What a page or the layout may export beside components: the runtime reads them from the module
 * it first loaded, so a new value shows after the next load, as with a loader's data.
 */
const MODULE_VALUES = new Set(["title", "meta", "cache"]);

/**
 * Whether a module that ran again can be swapped in: only components (and a page's values) leave
 * nothing behind. Another value (a context, a constant, a hook) is still the old one wherever an
 * importer reads it, since only the edited module ran again.
 */
const onlyComponents = (module: Record<string, unknown>) =>
  Object.entries(module).every(
    ([name, value]) => MODULE_VALUES.has(name) || RefreshRuntime.isLikelyComponentType(value),
  );

async function apply(event: DevEvent): Promise<void> {
  switch (event.type) {
    case "refresh":
      // Each chunk is an edited component file's entry chunk: importing it runs that module alone,
      // and its components register again under the same ids.
      for (const chunk of event.chunks) {
        await untilServed(chunk);
        const module: Record<string, unknown> = await import(/* @vite-ignore */ chunk);
        if (!onlyComponents(module)) return location.reload();
      }
      RefreshRuntime.performReactRefresh();
      return hideBuildError();
    case "css":
      await swapStylesheet(event.href);
      return hideBuildError();
    case "server":
      return refetchData();
    case "reload":
      return location.reload();
    case "error":
      return showBuildError(event);
    case "ok":
      return hideBuildError();
  }
}

let queue = Promise.resolve();
const events = new EventSource(__VERGE_DEV_EVENTS__);
events.addEventListener("message", (message: MessageEvent<string>) => {
  const event = JSON.parse(message.data) as DevEvent;
  queue = queue.then(() => apply(event)).catch(() => location.reload());
});
