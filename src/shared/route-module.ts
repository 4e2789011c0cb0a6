// What a product hands the runtime (its routes, layout and not-found page), what a page file
// exports, and the helpers page authors use.
import type { ComponentType, ReactNode } from "react";
import type { ActionFailure, FieldErrors, Params } from "./protocol";
import { route, type RouteDefinition } from "./routing";

export interface LoaderArgs {
  request: Request;
  /** The page URL, without the page-data marker parameter. */
  url: URL;
  params: Params;
  env: Env;
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
 * JavaScript callers), `invalid(fieldErrors)`, or `redirect(location)`.
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

export interface RouteModule {
  /** The page component: rendered on the server and hydrated in the browser. */
  default: ComponentType<PageProps<any>>; // any: each page narrows its own data type
  /** The document title, fixed or computed from the loader's data. */
  title: string | ((data: any) => string); // any: as above
  /** Server only: stripped from the client bundle by the build. */
  loader?: Loader;
  /** Server only: named mutations (see src/actions.ts). */
  actions?: Actions;
  /**
   * This route's Cache-Control toward browsers, per kind of answer; defaults: HTML
   * "private, no-cache", page data "private, no-store" (server/headers.ts).
   */
  cacheControl?: { html?: string; data?: string };
}

const REDIRECT = Symbol.for("verge.redirect");

export interface Redirect {
  [REDIRECT]: true;
  location: string;
}

/** Return (or throw) from a loader or action to send the visitor elsewhere. */
export function redirect(location: string): Redirect {
  return { [REDIRECT]: true, location };
}

export function isRedirect(value: unknown): value is Redirect {
  return typeof value === "object" && value !== null && REDIRECT in value;
}

const INVALID = Symbol.for("verge.invalid");

export interface Invalid {
  [INVALID]: true;
  fieldErrors: FieldErrors;
}

/** Return from an action when the input is wrong: 422, errors shown next to their fields. */
export function invalid(fieldErrors: FieldErrors): Invalid {
  return { [INVALID]: true, fieldErrors };
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
}
