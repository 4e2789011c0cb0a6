// The navigation hooks as React Router names them, over verge's client router. In the worker's
// render they answer what a page without JavaScript would: idle, and the request's query.
import { useCallback, useContext, useMemo, useSyncExternalStore } from "react";
import type { Href } from "./link";
import { RequestUrlContext } from "./router-context";
import {
  activeRouter,
  currentNavigation,
  IDLE,
  isRevalidating,
  subscribe,
  type Navigation,
} from "./navigation-state";

export interface NavigateOptions {
  /** Replaces the history entry instead of adding one. */
  replace?: boolean;
}

/**
 * Goes to `to` as a link would (a number goes that far in history); before the page has hydrated,
 * the browser loads it in full.
 */
export function navigate(to: Href | number, options?: NavigateOptions): Promise<void> {
  const router = activeRouter();
  if (typeof to === "number") history.go(to);
  else if (router) return router.navigate(to, options);
  else location[options?.replace ? "replace" : "assign"](to);
  return Promise.resolve();
}

export function useNavigate(): typeof navigate {
  return navigate;
}

export function useNavigation(): Navigation {
  return useSyncExternalStore(subscribe, currentNavigation, () => IDLE);
}

export interface Revalidator {
  /** Loads the page on screen's data again (its layouts' too) and shows it. */
  revalidate(): Promise<void>;
  state: "idle" | "loading";
}

export function useRevalidator(): Revalidator {
  const loading = useSyncExternalStore(subscribe, isRevalidating, () => false);
  return {
    revalidate: () => activeRouter()?.revalidate() ?? Promise.resolve(),
    state: loading ? "loading" : "idle",
  };
}

/** What a query may be given as: `"?a=1"`, `{ a: "1" }`, `[["a", "1"]]` or URLSearchParams. */
export type SearchParamsInit = ConstructorParameters<typeof URLSearchParams>[0];

export type SetSearchParams = (
  next: SearchParamsInit | ((current: URLSearchParams) => SearchParamsInit),
  options?: NavigateOptions,
) => Promise<void>;

/** The query of the page on screen, and a setter that navigates to this path with another one. */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const requested = useContext(RequestUrlContext);
  const search = useSyncExternalStore(
    subscribe,
    () => location.search,
    () => (requested ? new URL(requested).search : location.search),
  );
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback<SetSearchParams>((next, options) => {
    const value = typeof next === "function" ? next(new URLSearchParams(location.search)) : next;
    const query = new URLSearchParams(value).toString();
    return navigate((location.pathname + (query && `?${query}`)) as Href, options);
  }, []);
  return [params, set];
}
