// Types of the per-request context every handler and middleware shares.
import type { Context } from "hono";
import type { AppDefinition } from "../shared/route-module";
import type { ClientManifest } from "./manifest";
import type { CapturedError, ErrorReport } from "./capture";
import type { D1State } from "./d1-session";
import type { KindOfRequest } from "./request-kind";
import type { Timings } from "./timings";

/** What kind of request this is: decided once, before any handler (request-kind.ts), and logged. */
export type RequestKind = "html" | "data" | "action" | "relay" | "asset";

/** How a page that opts into the edge cache was answered (page-cache.ts), on its log line. */
export type CacheState = "hit" | "stale" | "miss" | "bypass";

/** How a failure is answered: a page, page-data JSON, action JSON, or plain text. */
export type ErrorFormat = "html" | "data" | "action" | "text";

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
    /** The nonce a document that may be stored is rendered with, never sent (headers.ts). */
    renderNonce?: string;
    /** The newest bookmark the visitor sent that verge sealed (d1-session.ts), before any handler. */
    bookmark?: string;
    /** This request's D1 session and what page code's env holds (d1-session.ts), once asked for. */
    d1?: D1State;
    /** When this request's phases began and ended (timings.ts). */
    timings?: Timings;
  };
}

export type AppContext = Context<AppEnv>;
