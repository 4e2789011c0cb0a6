// What a product hands the runtime (its routes, layout and not-found page), what a page file
// exports, and the helpers page authors use.
import type { ComponentType, ReactNode } from "react";
import { STATUS, type ActionFailure, type FieldErrors, type Params } from "./protocol";
import { route, type RouteDefinition } from "./routing";

/** What page code may do with D1: a session's queries (no exec, no session of its own). */
export type D1Session = Pick<D1DatabaseSession, "prepare" | "batch">;

/**
 * The Worker's bindings as loaders and actions get them: `DB` is the request's D1 session (reads
 * near the visitor, yet every write of theirs seen), made by the runtime.
 */
export type PageEnv = Omit<Env, "DB"> & { DB: D1Session };

export interface LoaderArgs {
  request: Request;
  /** The page URL, without the page-data marker parameter. */
  url: URL;
  params: Params;
  env: PageEnv;
  /** For work that may outlive the response (ctx.waitUntil). */
  ctx: Pick<ExecutionContext, "waitUntil">;
}

/**
 * Returns the page's data (JSON values). A top-level property holding a Promise
 * is deferred: the HTML shell streams without it and the value follows in the
 * same response (render it inside `<Suspense>` with `<Await>`).
 */
export type Loader<D = unknown> = (args: LoaderArgs) => D | Promise<D>;

/** A submitted form's fields by name (FormData and JSON bodies alike); the first value of a repeated name wins. */
export type Fields = Record<string, string>;

export interface ActionArgs extends LoaderArgs {
  fields: Fields;
}

/**
 * A mutation: receives the parsed fields and returns a result (JSON values, sent to
 * JavaScript callers), `invalid(fieldErrors, options?)`, or `redirect(location)`.
 */
export type Action<R = unknown> = (
  args: ActionArgs,
) => R | Invalid | Redirect | Promise<R | Invalid | Redirect>;

export type Actions = Record<string, Action>;

export interface PageProps<D = unknown> {
  data: D;
  params: Params;
  /** Field errors and typed values after a failed form submission. */
  actionData?: ActionFailure;
}

/** What a page says about itself in <head> besides its title (rendered by src/server/head.ts). */
export interface PageMeta {
  /** `<meta name="description">` and og:description: the sentence or two a search result shows. */
  description?: string;
  /** `<link rel="canonical">` and og:url: the page's one address, a path or an absolute URL. */
  canonical?: string;
  /** `<meta name="robots">`, e.g. "noindex" for a page search engines should not list. */
  robots?: string;
  /** og:image and twitter:image (a path or an absolute URL); the Twitter card is then a large one. */
  image?: string;
}

export interface RouteModule {
  /** The page component: rendered on the server and hydrated in the browser. */
  default: ComponentType<PageProps<any>>; // any: each page narrows its own data type
  /** The document title, fixed or computed from the loader's data. */
  title: string | ((data: any) => string); // any: as above
  /**
   * The head's other tags (description, canonical address, robots, image), fixed or computed from
   * the loader's data; each field falls back to the product's (AppDefinition.meta). Server only:
   * page data carries the tags they make.
   */
  meta?: PageMeta | ((data: any) => PageMeta); // any: as above
  /** Server only: stripped from the client bundle by the build. */
  loader?: Loader;
  /** Server only: named mutations (see src/actions.ts). */
  actions?: Actions;
  /**
   * This route's Cache-Control toward browsers, per kind of answer; defaults: HTML
   * "private, no-cache", page data "private, no-store" (server/headers.ts).
   */
  cacheControl?: { html?: string; data?: string };
  /**
   * Server only: lets this location's edge cache keep the page's HTML and page data
   * (server/page-cache.ts). Only for pages whose answer is the same for every visitor.
   */
  cache?: CachePolicy;
}

/** How long a cached page is served (seconds): fresh for `maxAge`, then stale while it is refreshed. */
export interface CachePolicy {
  maxAge: number;
  /** Past maxAge, how long the old answer is still served while one request renders anew (default 0). */
  staleWhileRevalidate?: number;
}

const REDIRECT = Symbol.for("verge.redirect");

export interface Redirect {
  [REDIRECT]: true;
  location: string;
}

/**
 * A same-site path: one "/" then anything but another "/" or "\\" ("//host" and "/\\host" name
 * another host to a browser), and no control characters (the URL parser drops tabs and
 * newlines, so "/\t/host" is "//host" too).
 */
const SAME_SITE_PATH = /^\/(?![/\\])[^\x00-\x1f\x7f]*$/;

/**
 * The Location to send for `location`, or null when it may not be sent: a same-site path, or an
 * absolute http(s) URL of `page`'s origin (without `page`, of any: redirect() cannot know the
 * request). Such a URL stays absolute: its path alone may be "//host".
 */
function checkedLocation(location: unknown, page?: URL): string | null {
  if (typeof location !== "string") return null;
  if (SAME_SITE_PATH.test(location)) return location;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!page) return location;
  return url.origin === page.origin ? url.href : null;
}

function refused(location: unknown, where: string): TypeError {
  return new TypeError(
    `redirect() takes a same-site path ("/guestbook") or an absolute URL of the page's own origin` +
      `${where}; got ${JSON.stringify(location)}`,
  );
}

/**
 * Return (or throw) from a loader or action to send the visitor elsewhere: to a same-site path
 * ("/guestbook?page=2") or an absolute URL of the page's own origin. Anything else (another
 * site, "//host", "javascript:") throws here, or, for an absolute URL of another origin, when
 * the answer is built: a programming error, which tests catch.
 */
export function redirect(location: string): Redirect {
  if (checkedLocation(location) === null) throw refused(location, "");
  return { [REDIRECT]: true, location };
}

/** Where `to` sends a visitor of `page`, checked again (a Redirect can be forged, and its origin is known only now). */
export function redirectLocation(to: Redirect, page: URL): string {
  const location = checkedLocation(to.location, page);
  if (location === null) throw refused(to.location, ` (${page.origin})`);
  return location;
}

export function isRedirect(value: unknown): value is Redirect {
  return typeof value === "object" && value !== null && REDIRECT in value;
}

const INVALID = Symbol.for("verge.invalid");

export interface InvalidOptions {
  /** A 4xx other than 422: 429 for a visitor over a rate limit, 409 for a conflict. */
  status?: number;
  /** Headers of the answer, e.g. `Retry-After`. */
  headers?: Record<string, string>;
  /** About the whole submission rather than one field: shown with the form, in its alert. */
  message?: string;
}

export interface Invalid {
  [INVALID]: true;
  fieldErrors: FieldErrors;
  status: number;
  headers: Record<string, string>;
  message?: string;
}

/**
 * Return from an action when the submission is refused: 422 (or `options.status`), errors shown
 * next to their fields and `options.message` with the form; the typed values are kept, with
 * JavaScript and without.
 */
export function invalid(fieldErrors: FieldErrors, options: InvalidOptions = {}): Invalid {
  const { status = STATUS.unprocessable, headers = {}, message } = options;
  // Anything else would tell the browser the submission was fine, or blame the server.
  if (!Number.isInteger(status) || status < 400 || status > 499) {
    throw new RangeError(`invalid() takes a 4xx status, not ${status}`);
  }
  return { [INVALID]: true, fieldErrors, status, headers, ...(message === undefined ? {} : { message }) };
}

export function isInvalid(value: unknown): value is Invalid {
  return typeof value === "object" && value !== null && INVALID in value;
}

export function titleOf(module: Pick<RouteModule, "title">, data: unknown): string {
  return typeof module.title === "function" ? module.title(data) : module.title;
}

/** One line of the route table: `page("/guestbook", () => import("./pages/guestbook"))`. */
export function page(path: string, load: () => Promise<RouteModule>): RouteDefinition<RouteModule> {
  return route(path, load);
}

export type RouteTable = readonly RouteDefinition<RouteModule>[];

/**
 * A product, as the runtime receives it from the two entries (src/worker.ts, client/entry.tsx):
 * the runtime itself never imports src/app/.
 */
export interface AppDefinition {
  /** The route table; the first matching pattern wins. */
  routes: RouteTable;
  /** Wraps every page, the not-found page and route errors: skip link, header, <main>. */
  Layout: ComponentType<{ children: ReactNode }>;
  /** Shown inside the layout for a path no route matches. */
  NotFound: ComponentType;
  /** The head tags every page starts from (a page's own `meta` fields win): the site's description. */
  meta?: PageMeta;
  /** The not-found page's head tags, over `meta` (e.g. its own description, robots "noindex"). */
  notFoundMeta?: PageMeta;
}
