// Server-side error reporting: the one module that knows about the Sentry SDK.
// Issue 5 fills this in with toucan-js; until then reports are only logged.

export interface ErrorReport {
  error: unknown;
  digest: string;
  route: string | null;
  ray: string;
  request: Request;
  env: Env;
}

/** The default reportError hook: sends nothing (logs are written regardless). */
export function reportToSentry(_report: ErrorReport): void {}
