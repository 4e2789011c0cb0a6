// Types of the per-request context every handler and middleware shares: the shape of each
// variable lives here, and the module named beside it fills it in, so no module of the runtime
// needs another's types to know what a request carries.
import type { Context } from "hono";
import type { AppDefinition, D1Session, PageEnv, RouteModule } from "../shared/route-module";
import type { RouteMatch } from "../shared/match-route";
import type { RequestContext } from "../shared/middleware";
import type { ClientManifest } from "./manifest";

/** What kind of request this is: decided once, before any handler (request-kind.ts), and logged. */
export type RequestKind = "html" | "data" | "action" | "endpoint" | "discovery" | "relay" | "asset";

/** How a page that opts into the edge cache was answered (page-cache.ts), on its log line. */
export type CacheState = "hit" | "stale" | "miss" | "bypass" | "shell";

/** How a failure is answered: a page, page-data JSON, action JSON, an endpoint's JSON, or plain text. */
export type ErrorFormat = "html" | "data" | "action" | "json" | "text";

/** Everything the runtime is given: the product (from src/app/) and its client build's manifest. */
export interface AppConfig extends AppDefinition {
  /** The product's client build (dist/manifest.json): build id, entry, chunks per route. */
  manifest: ClientManifest;
}

/** Facts gathered while handling a request, written as its one log line. */
export interface RequestLog {
  route: string | null;
  /** Every error captured while handling the request, in order (capture.ts). */
  errors: CapturedError[];
  /** Extra fields a handler adds to the line (the relay's project, event id, bytes). */
  fields?: Record<string, unknown>;
  /** Settles when a streamed body is complete; the line is written then. */
  pending?: Promise<unknown>;
}

export type ReportError = (report: ErrorReport) => Promise<void> | void;

export interface AppEnv {
  Bindings: Env;
  Variables: {
    app: AppConfig;
    ray: string;
    log: RequestLog;
    /** What this request is (request-kind.ts), decided before anything else runs. */
    kind: KindOfRequest;
    /** Records an error (log line, reporting hook) once and returns its digest; never throws. */
    capture: (error: unknown) => string;
    /** The CSP nonce for this response (headers.ts); hono/secure-headers reads the same key. */
    secureHeadersNonce?: string;
    /** The newest bookmark the visitor sent that verge sealed (d1-session.ts), before any handler. */
    bookmark?: string;
    /** When that bookmark was issued (ms): page data hands it back with the same lifetime. */
    bookmarkIssuedAt?: number;
    /** This request's D1 session and what page code's env holds (d1-session.ts), once asked for. */
    d1?: D1State;
    /** When this request's phases began and ended (timings.ts). */
    timings?: Timings;
    /** What middleware set for the loaders and actions below it (middleware.ts). */
    context?: RequestContext;
    /** Headers middleware added to this request's answer (middleware.ts). */
    answerHeaders?: Headers;
  };
}

export type AppContext = Context<AppEnv>;

/** An error as the log line and the fallback know it (capture.ts). */
export interface CapturedError {
  digest: string;
  message: string;
  stack?: string;
}

/** What the reporting hook receives for each captured error. */
export interface ErrorReport {
  /** The thrown value itself: an Error, or whatever else was thrown. */
  error: unknown;
  digest: string;
  route: string | null;
  ray: string;
  /** The request it happened in; none for work that runs without one (scheduled.ts). */
  request?: Request;
  /** The cron of the scheduled run it happened in (scheduled.ts). */
  cron?: string;
  env: Env;
  /** The build id, as the release the error belongs to. */
  release: string;
}

/** The request's D1 session and what page code's env holds (d1-session.ts). */
export interface D1State {
  env: PageEnv;
  session?: D1DatabaseSession;
  /** What page code holds: the session, watched for writes and where D1 served it. */
  db?: D1Session;
  /** The visitor's valid bookmark the session started from (reads only). */
  from?: string;
  /** Whether a statement that may write ran: any but a single SELECT. */
  wrote: boolean;
}

/** A request's kind and what follows from it (request-kind.ts). */
export interface KindOfRequest {
  /** Null for a method no page, action or relay takes (405). */
  kind: RequestKind | null;
  /**
   * An action sent by our client script: it always names the action in X-Action, which a plain
   * HTML form cannot. It is answered in JSON; a form's action with redirects and pages.
   */
  script: boolean;
  /** How its failures are answered. */
  errorFormat: ErrorFormat;
  /** An endpoint's route and params, matched to decide the kind (kind "endpoint" only). */
  endpoint?: RouteMatch<RouteModule>;
}

/**
 * The request's phases: route match, each middleware, cache lookup, the loaders, action, render
 * until the shell, the relay's upstream call, and each deferred value (`deferred:<key>`) until it
 * settles.
 */
export type Phase =
  | "match"
  | "cache"
  | "loader"
  | "visitor"
  | "action"
  | "endpoint"
  | "shell"
  | "resume"
  | "relay"
  | `deferred:${string}`
  /** A layout's loader, by the layout's id. */
  | `layout:${string}`
  /** One middleware, by its function's name (or its place in the chain). */
  | `middleware:${string}`;

/** The slice of the runtime's Workers tracing timings.ts uses (`tracing` of cloudflare:workers). */
export type Tracing = Pick<globalThis.Tracing, "enterSpan">;

/** When this request's phases began and ended (timings.ts). */
export interface Timings {
  /** performance.now() when the request arrived; every edge below is relative to it. */
  readonly start: number;
  /** Each phase's [start, duration] in ms; a phase that runs twice adds to its duration. */
  readonly phases: Partial<Record<Phase, [number, number]>>;
  /** D1: when the first statement started, what D1's meta.duration adds up to, how many ran. */
  d1?: { at: number; ms: number; queries: number };
  /** The runtime's tracing, for a request it samples: the others enter no span past the first. */
  tracing: Tracing | null;
}
