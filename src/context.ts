// Types of the per-request context every handler and middleware shares.
import type { Context } from "hono";
import type { ErrorReport } from "./reporting";

/** What kind of request this is: decided once, at the top, and logged. */
export type RequestKind = "html" | "data" | "action" | "relay" | "asset";

/** Facts gathered while handling a request, written as its one log line. */
export interface RequestLog {
  kind: RequestKind;
  route: string | null;
  /** The first error captured while handling the request. */
  error?: { digest: string; message: string; stack?: string };
  /** Extra fields a handler adds to the line (the relay's project, event id, bytes). */
  fields?: Record<string, unknown>;
  /** Settles when a streamed body is complete; the line is written then. */
  pending?: Promise<unknown>;
}

export type ReportError = (report: ErrorReport) => Promise<void> | void;

export interface AppEnv {
  Bindings: Env;
  Variables: {
    ray: string;
    log: RequestLog;
    /** Records an error (log line, Sentry) once and returns its digest. */
    capture: (error: unknown) => string;
    /** The CSP nonce for this response (src/security-headers.ts requestNonce). */
    secureHeadersNonce?: string;
    /** The answer src/http.ts built with the security headers already set. */
    securedResponse?: Response;
  };
}

export type AppContext = Context<AppEnv>;
