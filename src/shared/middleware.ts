// Middleware and the typed request context it fills: what runs before the loaders and actions of
// a layout's pages (or the whole app), and how it hands values to them.
import type { Params } from "./href";
import type { PageEnv } from "./route-module";
import type { Redirect } from "./redirect";
import type { NotFound } from "./not-found";

declare const valueType: unique symbol;

/** A typed key of the request context: `createContext<Account>("account")`. */
export interface ContextKey<T> {
  readonly name: string;
  readonly [valueType]?: T;
}

/** Makes a key middleware sets and loaders, actions and endpoints read, typed by `T`. */
export function createContext<T>(name: string): ContextKey<T> {
  return { name };
}

/** The request's values, by key: what middleware found out, for the code below it. */
export interface RequestContext {
  /** The value middleware set under `key`; throws when none did (a middleware missing from the chain). */
  get<T>(key: ContextKey<T>): T;
  /** The value under `key`, or undefined when none was set. */
  find<T>(key: ContextKey<T>): T | undefined;
  set<T>(key: ContextKey<T>, value: T): void;
}

/** A fresh context for one request. */
export function requestContext(): RequestContext {
  const values = new Map<ContextKey<unknown>, unknown>();
  return {
    get(key) {
      if (!values.has(key)) {
        throw new Error(
          `No middleware set the context value "${key.name}": list the middleware that sets it in ` +
            `the layout (or app) above this route (\`export const middleware = [...]\`)`,
        );
      }
      return values.get(key) as never;
    },
    find: (key) => values.get(key) as never,
    set: (key, value) => void values.set(key, value),
  };
}

/**
 * The context a cached page's loaders get: they make one answer for every visitor, so nothing a
 * middleware learnt about this one may reach them.
 */
export const SHARED_CONTEXT: RequestContext = {
  get(key) {
    throw new Error(
      `A cached page's loader cannot read "${key.name}" from the request context: its answer is ` +
        `stored for every visitor. Read it in a visitorLoader, or do not cache the page.`,
    );
  },
  find: () => undefined,
  set(key) {
    throw new Error(`A cached page's loader cannot set "${key.name}" in the request context.`);
  },
};

/**
 * What a request is, as the log line's `kind` says: a document (`html`), a client navigation's
 * page data, an action (a form post, with or without JavaScript) or an endpoint's request.
 */
export type MiddlewareKind = "html" | "data" | "action" | "endpoint";

/** What a middleware receives. */
export interface MiddlewareArgs {
  /** The request's kind: a guard redirects a document or a form, and answers an API client 401. */
  kind: MiddlewareKind;
  request: Request;
  /** The page URL (without the page-data marker). */
  url: URL;
  /** The matched route's params (all of them). */
  params: Params;
  env: PageEnv;
  ctx: Pick<ExecutionContext, "waitUntil">;
  context: RequestContext;
  /** Headers added to whatever answers this request (a `Set-Cookie`, say), this one's or below's. */
  headers: Headers;
  /** The matched route's pattern, or null for a path no route matches. */
  route: string | null;
}

/**
 * Runs before the loaders and actions below it, outermost first, for documents, page data and
 * actions alike (and endpoints). It calls `next()` once to go on (and may look at what came
 * back), or answers itself: `return redirect("/sign-in")` (as a 302/303, or the page-data
 * protocol's redirect for client navigations), `notFound()` (the not-found view, 404), or a
 * Response.
 */
export type Middleware = (
  args: MiddlewareArgs,
  next: () => Promise<Response>,
) => void | Response | Redirect | NotFound | Promise<void | Response | Redirect | NotFound>;

/**
 * Names `run` for the log line and Server-Timing (`middleware:<name>`), the same under
 * `npm run dev` and in the production build, whose minifier drops or shortens function names.
 */
export function defineMiddleware(name: string, run: Middleware): Middleware {
  return Object.defineProperty(run, "name", { value: name });
}
