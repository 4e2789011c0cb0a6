// What the client router is doing, for the navigation hooks: a small store the router (loaded on
// demand) writes and components read, and the router itself once hydration has handed it over.
import type { ClientRouter } from "./router-context";

/** The address a navigation goes to (or a form posts to), as React Router's `Location`. */
export interface NavigationLocation {
  pathname: string;
  search: string;
  hash: string;
}

/** What `useNavigation()` returns: idle, loading the next page, or submitting a `<Form>`. */
export interface Navigation {
  state: "idle" | "loading" | "submitting";
  location?: NavigationLocation;
  /** A `<Form>`'s fields, while it submits and while the page after it loads. */
  formData?: FormData;
  formAction?: string;
  formMethod?: "POST";
}

export const IDLE: Navigation = { state: "idle" };

let navigation = IDLE;
let revalidating = false;
let router: ClientRouter | null = null;
const listeners = new Set<() => void>();

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const currentNavigation = () => navigation;
export const isRevalidating = () => revalidating;
/** The browser's router once the page has hydrated; null before, and in the worker. */
export const activeRouter = () => router;

/** Called by the router as a navigation, a submission or a revalidation starts and ends. */
export function setNavigation(next: Navigation, revalidation = revalidating): void {
  navigation = next;
  revalidating = revalidation;
  for (const listener of listeners) listener();
}

export function setActiveRouter(given: ClientRouter): void {
  router = given;
}
