// The browser's router as components see it. Null during server rendering: links and
// forms then behave as plain HTML, which is also what they do before hydration. The worker
// gives components the request's URL instead (useSearchParams reads it).
import { createContext, useContext } from "react";
import type { ActionSuccess, ErrorPayload, FieldErrors, PageData, RedirectPayload } from "./protocol";

/** What posting a form with JavaScript came to (client/form-submit.ts classifies the answer). */
export type SubmitOutcome =
  | { kind: "success"; answer: ActionSuccess }
  | { kind: "redirect"; location: string }
  /** The action said notFound(): show this page, the not-found view inside its layouts. */
  | { kind: "notFound"; page: PageData }
  | { kind: "invalid"; fieldErrors: FieldErrors; message?: string }
  /** The page is from another build, or lost its action: load it afresh. */
  | { kind: "reload" }
  | { kind: "failed"; message: string; digest?: string };

/** What fetcher.submit() sends: a form's fields, or names and values (as strings). */
export type FetcherBody = FormData | URLSearchParams | Record<string, string>;

/** What useFetcher() sends through (client/fetcher.ts): the requests of <Form> and of navigations. */
export interface FetcherTransport {
  /** Posts `body` to `url` as the action `actionName`, as a <Form> posts. */
  post(url: string, body: FetcherBody, actionName: string): Promise<SubmitOutcome>;
  /** The page data of `url`, as a navigation loads it; null: only a full page load can show it. */
  load(url: URL): Promise<{ page: PageData } | { error: ErrorPayload } | RedirectPayload | null>;
}

export interface ClientRouter {
  /** Client-side navigation to a same-origin URL (falls back to a full page load on failure). */
  navigate(href: string, options?: { replace?: boolean }): Promise<void>;
  /**
   * Shows a page the client already has the data for (an action's `page`), at `url`
   * (default: the current URL), without another request.
   */
  showPage(page: PageData, options?: { url?: string; replace?: boolean }): Promise<void>;
  /**
   * Posts `form` to its action URL as the action `actionName`, with fetch. `navigate: false` (a
   * fetcher's) leaves `useNavigation()` as it is.
   */
  submit(form: HTMLFormElement, actionName: string, options?: { navigate?: boolean }): Promise<SubmitOutcome>;
  /** Loads the page data of `url` ahead of a visit (and its chunks). */
  prefetch(url: URL): void;
  /** Loads the page on screen's data again, its layouts' included, and shows it. */
  revalidate(): Promise<void>;
  /** useFetcher()'s requests, loaded with its first use. */
  fetcher(): Promise<FetcherTransport>;
}

export const RouterContext = createContext<ClientRouter | null>(null);

/** The worker's render only: the request's URL. */
export const RequestUrlContext = createContext<string | null>(null);

export function useRouter(): ClientRouter | null {
  return useContext(RouterContext);
}
