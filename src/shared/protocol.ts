// The wire protocol between the worker and the browser: every header, query
// parameter and JSON shape both sides agree on lives here and nowhere else.

/** Marks a GET/HEAD of a page URL as a page-data request (answered with JSON). */
export const PAGE_DATA_HEADER = "X-Page-Data";
/**
 * Query parameter the client adds to page-data URLs so shared caches that ignore Vary keep them
 * apart. Its value lists the layouts whose data the client keeps, comma separated ("1": none).
 */
export const PAGE_DATA_PARAM = "_data";
/** The client's build id, sent with every page-data and action request. */
export const BUILD_HEADER = "X-Build";
/**
 * D1 read replication (the Sessions API): after a write, the session's bookmark travels back in
 * this header (page data, JavaScript actions; the client sends it back on its next requests)...
 */
export const D1_BOOKMARK_HEADER = "X-D1-Bookmark";
/** ...and in this cookie for documents and plain form posts (HttpOnly: only the server reads it). */
export const D1_BOOKMARK_COOKIE = "d1-bookmark";
/**
 * How long a write's bookmark is sent back (the cookie's Max-Age; the client's copy too): replicas
 * lag far less, and reads past it start anywhere again (and may be served from caches).
 */
export const D1_BOOKMARK_MAX_AGE_S = 60;
/** Action name for requests made by JavaScript. */
export const ACTION_HEADER = "X-Action";
/** Action name for plain HTML forms. */
export const ACTION_FIELD = "_action";
/** Idempotency key field carried by forms that must not apply twice. */
export const IDEMPOTENCY_FIELD = "_key";
/** Names a field whose value never comes back (a password <Field> sends one per field). */
export const SECRET_FIELD = "_secret";

/** Action body types, by media type; anything else is refused with 415. */
export const FORM_URLENCODED = "application/x-www-form-urlencoded";
export const FORM_MULTIPART = "multipart/form-data";
export const JSON_MEDIA_TYPE = "application/json";
/** Largest action body accepted; past it, 413 without reading the rest. */
export const MAX_ACTION_BODY_BYTES = 1024 * 1024;

/**
 * Route discovery: the browser asks here which route line matches a path it has not seen yet
 * (`?build=<id>&path=/a&path=/b`), since a first load carries its own page's line only.
 */
export const ROUTES_PATH = "/__verge/routes";
/** At most this many `path` parameters in one discovery request; more is 400. */
export const MAX_DISCOVERED_PATHS = 16;

/** id of the element whose JSON text is the page data the document was rendered with. */
export const PAGE_DATA_SCRIPT_ID = "__verge_page";
/** Attribute on the inline JSON that carries a deferred (streamed) value. */
export const DEFERRED_ATTR = "data-deferred";

/** The deferred key the per-visitor loader's data streams under (a loader's own keys are its data's). */
export const VISITOR_KEY = "$visitor";
/** id of the visually hidden live region that announces client-side navigations. */
export const ANNOUNCER_ID = "route-announcer";

// Sentry's headers (relay and browser reporter) are in ./sentry-headers.ts: a module of their
// own keeps them out of the browser's first-paint chunk (esbuild splits by module).

/**
 * HTTP statuses the protocol uses. An object, not an enum: Vite's bundler (Rolldown) writes an
 * enum out whole with its reverse mapping, where this table is only the pairs themselves.
 */
export const STATUS = {
  ok: 200,
  noContent: 204,
  seeOther: 303,
  badRequest: 400,
  forbidden: 403,
  notFound: 404,
  methodNotAllowed: 405,
  conflict: 409,
  payloadTooLarge: 413,
  unsupportedMediaType: 415,
  unprocessable: 422,
  tooManyRequests: 429,
  serverError: 500,
  badGateway: 502,
  gatewayTimeout: 504,
} as const;

export type Params = Record<string, string>;

/**
 * A value a loader deferred. In the HTML's embedded page data it has no `settled`:
 * the value follows later in the same stream. In page-data answers it is settled.
 */
export type DeferredMarker = {
  $deferred: string;
  settled?: { value: unknown } | { error: ErrorPayload };
  /**
   * The value goes out once, ahead of the boundaries that read it (a resumed shell's visitor
   * value): they carry no script of their own.
   */
  ahead?: true;
};

/**
 * One <meta> (by name or property) or <link> (by rel) of a page's head besides its title, as its
 * attributes. The server builds them (src/server/head.ts) and the browser renders whatever it is
 * given, so a new kind of tag is a change on the server only.
 */
export type HeadTag =
  { name: string; content: string } | { property: string; content: string } | { rel: string; href: string };

/** What a page is rendered from, on the server and in the browser alike. */
export interface PageData {
  /** The matched route pattern, or null when nothing matched (404). */
  route: string | null;
  params: Params;
  /** The loader's result (null for routes without a loader). */
  data: unknown;
  /** The document title. */
  title: string;
  /** The head's other tags (description, canonical...); the browser swaps in each page's own. */
  head: HeadTag[];
  /** The server's build id. */
  build: string;
  /** HTTP status the page was answered with. */
  status: number;
  /** Set when the route's loader failed: the page shows the route error view. */
  error?: ErrorPayload;
  /** Set when a loader, action or middleware said notFound(): the not-found view shows instead (404). */
  notFound?: true;
  /**
   * The data of each layout around the page, by id (pages below layouts only). A page-data answer
   * leaves out the layouts the client said it keeps (`_data`, below): their data is on screen.
   */
  layouts?: Record<string, LayoutPart>;
  /** Set when a plain-HTML action failed validation: field errors and typed values. */
  actionData?: ActionFailure;
  /**
   * The per-visitor loader's data (pages with one): a marker in the document, whose hole streams
   * the value; settled in page-data answers, always this visitor's own.
   */
  visitor?: DeferredMarker;
  /** Browser error reporting (the document's embedded page data only); absent: the reporter stays off. */
  reporter?: ReporterConfig;
  /**
   * The share of page loads (0-1] whose Web Vitals go through the reporter's relay (the document's
   * embedded page data only; src/shared/vitals.ts); absent: none, and the collector never loads.
   */
  vitals?: number;
  /** The page's route line, for the browser to load its modules (the document's embedded page data only). */
  line?: RouteLine;
}

/** A chunk the browser imports by its URL: its file, the chunks it imports, its stylesheets. */
export interface ChunkRef {
  file: string;
  imports?: string[];
  css?: string[];
}

/**
 * One line of the route table as the browser learns it: its pattern, its kind, and for a page its
 * chunk and its layouts' (outermost first). A chunk the build does not know is left out: the
 * browser then loads such a page in full.
 */
export interface RouteLine {
  path: string;
  kind: "page" | "endpoint";
  module?: ChunkRef;
  layouts?: { id: string; params: readonly string[]; module?: ChunkRef }[];
}

/** A discovery answer: the build, and by path asked its route line, or null when no route matches. */
export interface RoutesAnswer {
  build: string;
  routes: Record<string, RouteLine | null>;
}

/**
 * One layout's part of the page data: its loader's data, the digest of its loader's failure, or
 * notFound (its loader, or a middleware at or above it, said notFound(): the view shows in its place).
 */
export type LayoutPart = { data: unknown } | { error: ErrorPayload } | { notFound: true };

export interface ReporterConfig {
  /** The public DSN the envelopes name. */
  dsn: string;
  /** The same-site relay path envelopes are posted to. */
  tunnel: string;
}

export interface ErrorPayload {
  digest: string;
}

/** Page-data answer for a loader that redirected: the client navigates there. */
export interface RedirectPayload {
  redirect: string;
}

/** Strings by field name: error messages, typed values. With the names known (a schema's), only those. */
export type ByField<F extends string = string> = string extends F
  ? Record<string, string>
  : Partial<Record<F, string>>;

export type FieldErrors<F extends string = string> = ByField<F>;

export interface ActionSuccess {
  ok: true;
  result: unknown;
  page: PageData;
}

export interface ActionFailure<F extends string = string> {
  ok: false;
  fieldErrors: FieldErrors<F>;
  /** A refusal of the whole submission (e.g. too many in a short while), for the form's alert. */
  message?: string;
  /** The submitted values, so a re-rendered form keeps what was typed (never a password). */
  values?: ByField<F>;
}

export interface ActionError {
  ok: false;
  error: ErrorPayload;
  /** Set when the client should reload the page (unknown action: usually version skew). */
  reload?: boolean;
}

/** A successful action that sends the visitor elsewhere: the client navigates there. */
export interface ActionRedirect {
  ok: true;
  redirect: string;
}

/** An action (or its middleware) said notFound(): 404, and the page to show, the not-found view inside its layouts. */
export interface ActionNotFound {
  ok: false;
  notFound: true;
  page: PageData;
}

export type ActionResponse = ActionSuccess | ActionRedirect | ActionFailure | ActionError | ActionNotFound;

/**
 * The window event the client router dispatches once a client navigation's page is committed, for
 * the Web Vitals collector (loaded apart, after the page is idle) to begin that page's view:
 * every browser reports every view, not only where soft navigations are reported (Chromium 151+).
 */
export const VIEW_EVENT = "verge:view";

/** The view event's detail. */
export interface ViewStart {
  /** The page's address, as the router showed it. */
  href: string;
  /** Its route pattern (null: no route matched). */
  route: string | null;
  /** When the navigation began (the click), in ms from the document's time origin. */
  start: number;
}
