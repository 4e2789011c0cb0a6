// What a product hands the runtime (its routes, layout and not-found page), what a page file
// exports, and page(), a route table's line (redirects: redirect.ts).
import type { ComponentType, ReactNode } from "react";
import type { ActionFailure } from "./protocol";
import type { Invalid } from "./invalid";
import { route, type RouteDefinition } from "./routing";
import type { Params } from "./href";
import type { Data, LoaderData, Serialized } from "./page-data-types";
import type { FieldNames } from "./schema-action";
import type { Middleware, RequestContext } from "./middleware";
import type { EndpointModule, EndpointRoute } from "./endpoint";
import type { Redirect } from "./redirect";
import type { NotFound } from "./not-found";
import type { FitsPattern, PageLoad } from "./pattern-check";

/** What page code may do with D1: a session's queries (no exec, no session of its own). */
export type D1Session = Pick<D1DatabaseSession, "prepare" | "batch">;

/**
 * The Worker's bindings as loaders and actions get them: `DB` is the request's D1 session (reads
 * near the visitor, yet every write of theirs seen), made by the runtime.
 */
export type PageEnv = Omit<Env, "DB"> & { DB: D1Session };

/** What a loader receives; `P` is its route's pattern (`LoaderArgs<"/users/:id">`), for typed params. */
export interface LoaderArgs<P extends string = string> {
  request: Request;
  /** The page URL, without the page-data marker parameter. */
  url: URL;
  params: Params<P>;
  env: PageEnv;
  /** For work that may outlive the response (ctx.waitUntil). */
  ctx: Pick<ExecutionContext, "waitUntil">;
  /**
   * What the middleware above set for this request (`context.get(accountKey)`). A cached page's
   * loaders get none: their answer is every visitor's.
   */
  context: RequestContext;
}

/**
 * Returns the page's data (JSON values). A top-level property holding a Promise
 * is deferred: the HTML shell streams without it and the value follows in the
 * same response (render it inside `<Suspense>` with `<Await>`).
 */
export type Loader<D = unknown, P extends string = string> = (args: LoaderArgs<P>) => D | Promise<D>;

/** A submitted form's fields by name (FormData and JSON bodies alike); the first value of a repeated name wins. */
export type Fields = Record<string, string>;

export interface ActionArgs<P extends string = string> extends LoaderArgs<P> {
  fields: Fields;
}

/**
 * A mutation: receives the parsed fields and returns a result (JSON values, sent to
 * JavaScript callers), `invalid(fieldErrors, options?)`, or `redirect(location)`.
 */
export type Action<R = unknown, P extends string = string> = (
  args: ActionArgs<P>,
) => R | Invalid | Redirect | NotFound | Promise<R | Invalid | Redirect | NotFound>;

/**
 * A page's actions by name. A method's parameter is checked both ways, so an action typed for
 * its route's params (`ActionArgs<"/users/:id">`) still fits here.
 */
export type Actions = Record<string, { run(args: ActionArgs): unknown }["run"]>;

/**
 * A page component's props: `PageProps<typeof loader, "/users/:id", typeof actions>`. `data` is
 * the loader's result as the page receives it (Data), `params` the pattern's, and `actionData`
 * the field errors and typed values after a form sent without JavaScript failed, keyed by the
 * actions' schema fields. A page with a per-visitor loader names it fourth
 * (`PageProps<typeof loader, P, typeof actions, typeof visitorLoader>`): its `visitor` prop is a
 * Promise, read with `<Await>` inside `<Suspense>` only (a hole of the page's stored shell).
 */
export type PageProps<L = unknown, P extends string = string, A = unknown, V = never> = {
  data: Data<L>;
  params: Params<P>;
  /** Field errors and typed values after a failed form submission. */
  actionData?: ActionFailure<FieldNames<A>>;
} & VisitorProp<V>;

/** The per-visitor loader's data as the page receives it: a Promise of its JSON, never the value. */
export type VisitorData<V> = Promise<Serialized<LoaderData<V>>>;

type VisitorProp<V> = [V] extends [never] ? { visitor?: undefined } : { visitor: VisitorData<V> };

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
  default: ComponentType<any>; // any: each page narrows its own props (page() checks them)
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
  /**
   * Server only: the per-visitor loader. It runs on every request with the request as sent
   * (cookies, headers), also when the page's shell comes from the edge cache, and the page gets
   * its data as the `visitor` prop, a Promise read inside `<Suspense>` (server/shell.tsx).
   */
  visitorLoader?: Loader;
  /** Server only: named mutations (see src/server/actions.ts). */
  actions?: Actions;
  /** Server only: middleware of this page alone, after its layouts' (see `Middleware`). */
  middleware?: readonly Middleware[];
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
  /**
   * Shown inside the page's layouts, with the digest, when its loader or its render fails:
   * instead of the innermost layout's error view (or, without layouts, the whole-page fallback).
   */
  ErrorView?: ComponentType<{ digest?: string }>;
}

/** How long a cached page is served (seconds): fresh for `maxAge`, then stale while it is refreshed. */
export interface CachePolicy {
  maxAge: number;
  /** Past maxAge, how long the old answer is still served while one request renders anew (default 0). */
  staleWhileRevalidate?: number;
  /**
   * The query parameters the page reads (default none). Its loader sees only these, and its
   * entries are kept per their values: `/?utm_source=x` is served `/`'s entry.
   */
  query?: readonly string[];
}

type ModuleData<M> = M extends { loader: infer L } ? Data<L> : null;
type ModuleActions<M> = M extends { actions: infer A } ? A : unknown;
type ModuleVisitor<M> = M extends { visitorLoader: infer V } ? VisitorProp<V> : VisitorProp<never>;

/** What a page module must be to serve pattern `P`: each export checked against the others. */
export interface PageModule<P extends string, M> {
  default: ComponentType<
    {
      data: ModuleData<M>;
      params: Params<P>;
      actionData?: ActionFailure<FieldNames<ModuleActions<M>>>;
    } & ModuleVisitor<M>
  >;
  title: string | ((data: ModuleData<M>) => string);
  meta?: PageMeta | ((data: ModuleData<M>) => PageMeta);
  loader?: (args: LoaderArgs<P>) => unknown;
  visitorLoader?: (args: LoaderArgs<P>) => unknown;
  actions?: Record<string, { run(args: ActionArgs<P>): unknown }["run"]>;
  cacheControl?: RouteModule["cacheControl"];
  cache?: CachePolicy;
  ErrorView?: RouteModule["ErrorView"];
}

declare const pageModule: unique symbol;

/** A route table line: its pattern kept as a literal type (for params and href()), its module's type. */
export type PageRoute<P extends string, M = unknown> = RouteDefinition<RouteModule> & {
  path: P;
  readonly [pageModule]?: M;
};

/** One route checked against its page or endpoint module (distributes over a table's union of routes). */
type CheckedRoute<T> =
  T extends EndpointRoute<infer P, infer _M>
    ? EndpointRoute<P, EndpointModule<P>>
    : T extends PageRoute<infer P, infer M>
      ? PageRoute<P, PageModule<P, M>>
      : T;

/**
 * A route table, checked: `Routes<typeof routes>` does not compile when a page module does not
 * fit its pattern (a component or loader expecting other params, a title or component expecting
 * other data than the loader gives). The app registers its table through it (src/app/routes.ts);
 * it is a type apart from the table so that pages may use href() in their own types.
 */
export type Routes<R extends readonly CheckedRoute<R[number]>[]> = R;

/**
 * One line of the route table: `page("/guestbook", () => import("./pages/guestbook"))`. A module
 * reading params the pattern lacks fails to compile here, in one sentence at this line; `Routes`
 * checks the rest (its component, title and meta against its loader's data). A line that fails
 * here carries no module type, so `Routes` does not report it a second time.
 */
export function page<P extends string, M>(
  path: P,
  load: PageLoad<P, M>,
): PageRoute<P, FitsPattern<P, M> extends true ? M : never> {
  // The runtime holds every module as a RouteModule; Routes<> checks it is one.
  return route(path, load as unknown as () => Promise<RouteModule>) as PageRoute<P, never>;
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
  /** Shown inside the layout for a path no route matches, and inside a page's layouts for notFound(). */
  NotFound: ComponentType;
  /** The head tags every page starts from (a page's own `meta` fields win): the site's description. */
  meta?: PageMeta;
  /** The not-found page's head tags, over `meta` (e.g. its own description, robots "noindex"). */
  notFoundMeta?: PageMeta;
  /** Middleware for every request to a page (or endpoint), before any layout's own. */
  middleware?: readonly Middleware[];
}
