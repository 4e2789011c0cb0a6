// Development only: what `vite dev` adds to the page (verge/vite imports it first in the entry).
// React Refresh (@vitejs/plugin-react) swaps components in place; this lets a page's server-side
// values pass through it, and refetches the page's data when server code changes.
// @ts-expect-error: a path `vite dev` serves (@vitejs/plugin-react's refresh runtime), not a package.
import { register as registerComponent } from "/@react-refresh";
import { PAGE_DATA_SCRIPT_ID } from "../src/shared/protocol";
import { DATA_CHANGED_EVENT, FAST_REFRESH_HOOK, type RefreshMade } from "../src/shared/fast-refresh-hook";
import { requestPage } from "./prefetch";
import type { Router } from "./router";

/**
 * A page's exports beside its component that the worker reads (the browser never does): a new
 * value shows with the next load, and its module is still refreshed in place rather than reloaded.
 */
const SERVER_VALUES = ["title", "meta", "cache", "cacheControl"];
Object.assign(window, { __getReactRefreshIgnoredExports: () => SERVER_VALUES });

/** Registers a component under an id: the one registered next under it is its new version. */
const register = registerComponent as (type: unknown, id: string) => void;

/** The runtime's modules that make components for a page (formFor): never the page itself. */
const FACTORIES = /\/src\/shared\/(fast-refresh-hook|typed-form)\.tsx?$/;

/** The module whose top-level code is running now: the first frame outside this file and FACTORIES. */
function callingModule(): string | null {
  for (const [, file] of (new Error().stack ?? "").matchAll(/(?:https?:\/\/[^/\s]+)?(\/[^\s?():]+)/g)) {
    if (file && !file.endsWith("/client/dev.ts") && !FACTORIES.test(file)) return file;
  }
  return null;
}

/** How many components each module has made in this run of it: the id of the next. */
const madeCount = new Map<string, number>();

/**
 * A component a runtime factory made at a module's top (formFor), which React Refresh's transform
 * cannot see: registered under that module and its place in it, so the component made when the
 * module runs again after an edit is the same component to React, which keeps its state and its
 * DOM (text typed in the form). The counts start over once the module has run.
 */
const onMade: RefreshMade = (type, name) => {
  const file = callingModule();
  if (file === null) return;
  if (madeCount.size === 0) queueMicrotask(() => madeCount.clear());
  const key = `${file} ${name}`;
  const index = madeCount.get(key) ?? 0;
  madeCount.set(key, index + 1);
  register(type, `${key}#${index}`);
};
Object.assign(globalThis, { [FAST_REFRESH_HOOK]: onMade });

/** The page's data again, shown in place: what a loader or action edit changes. */
async function refetchData(): Promise<void> {
  const router = (globalThis as { __vergeRouter?: Router }).__vergeRouter;
  // The dev server's build id never changes: the first page's is current.
  const build = JSON.parse(document.getElementById(PAGE_DATA_SCRIPT_ID)?.textContent ?? "{}").build ?? "";
  const answer = router ? await requestPage(new URL(location.href), build).catch(() => null) : null;
  if (router && answer && "page" in answer) await router.showPage(answer.page, { url: location.href });
  else location.reload();
}

import.meta.hot?.on(DATA_CHANGED_EVENT, () => void refetchData());
