// Development only: what `vite dev` adds to the page (verge/vite imports it first in the entry).
// It plugs React Refresh (@vitejs/plugin-react) into the runtime's dev seam (src/shared/dev-seam.ts),
// lets a page's server-side values pass through Fast Refresh, and shows the page's data again once
// the dev server says the worker runs a save of server code.
// @ts-expect-error: a path `vite dev` serves (@vitejs/plugin-react's refresh runtime), not a package.
import { register } from "/@react-refresh";
import { PAGE_DATA_SCRIPT_ID } from "../src/shared/protocol";
import { DATA_CHANGED_EVENT, devRouter, plugIntoDev } from "../src/shared/dev-seam";
import { requestPage } from "./prefetch";

/**
 * A page's exports beside its component that the worker reads (the browser never does): a new
 * value shows with the next load, and its module is still refreshed in place rather than reloaded.
 * (React Refresh's own hook on window, read by @vitejs/plugin-react.)
 */
const SERVER_VALUES = ["title", "meta", "cache", "cacheControl"];
Object.assign(window, { __getReactRefreshIgnoredExports: () => SERVER_VALUES });

plugIntoDev({ register: register as (type: unknown, id: string) => void });

/** The page's data again, shown in place: what a loader or action edit changes. */
async function refetchData(): Promise<void> {
  const router = devRouter();
  // The dev server's build id never changes: the first page's is current.
  const build = JSON.parse(document.getElementById(PAGE_DATA_SCRIPT_ID)?.textContent ?? "{}").build ?? "";
  const answer = router ? await requestPage(new URL(location.href), build).catch(() => null) : null;
  if (router && answer && "page" in answer) await router.showPage(answer.page, { url: location.href });
  else location.reload();
}

import.meta.hot?.on(DATA_CHANGED_EVENT, () => void refetchData());
