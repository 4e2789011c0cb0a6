// Error capture: every thrown value (an Error or anything else) gets one digest, goes on the
// request's log record and to the injected reporting hook. Capturing never throws.
import type { MiddlewareHandler } from "hono";
import type { AppEnv, CapturedError, ErrorReport, ReportError } from "./context";

/**
 * A thrown value as text, whatever it is: `String(Object.create(null))` throws, a getter may
 * throw, a Response has no useful String(). Never throws itself.
 */
export function describeThrown(error: unknown): { name: string; message: string; stack?: string } {
  try {
    if (error instanceof Error) {
      return { name: String(error.name), message: String(error.message), stack: error.stack };
    }
    if (error instanceof Response) {
      return { name: "Response", message: `A Response was thrown (status ${error.status})` };
    }
    if (typeof error === "object" && error !== null) {
      let text: string;
      try {
        text = JSON.stringify(error) ?? "";
      } catch {
        text = "";
      }
      return { name: "NonError", message: `A non-Error object was thrown: ${text.slice(0, 500) || "{}"}` };
    }
    return { name: "NonError", message: `A non-Error value was thrown: ${String(error).slice(0, 500)}` };
  } catch {
    return { name: "NonError", message: "A value that cannot be described was thrown" };
  }
}

/** 8-16 characters of [0-9a-z], derived from the (described) error and the request (or run) it happened in. */
export function digestOf({ name, message, stack }: ReturnType<typeof describeThrown>, ray: string): string {
  return cyrb53(`${ray}\n${name}\n${message}\n${stack ?? ""}`)
    .toString(36)
    .padStart(11, "0")
    .slice(-11);
}

/** A fast 53-bit string hash: digests need to be well spread, not secret. */
function cyrb53(input: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < input.length; i++) {
    const ch = input.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Used when even describing the error failed: still a digest, still on the log line. */
export const UNDESCRIBABLE = "0000000000x";

/**
 * Sets the request's `capture`: a thrown value in, its digest out, recorded once. Every digest a
 * visitor can see comes from here, so each one is on the request's log line.
 */
export function errorCapture(reportError: ReportError): MiddlewareHandler<AppEnv> {
  return async function errorCapture(c, next) {
    // Created on the first capture: most requests capture nothing.
    let byValue: Map<unknown, string> | undefined;
    c.set("capture", (error) => {
      const log = c.get("log");
      const known = byValue?.get(error);
      if (known) return known;
      let digest = UNDESCRIBABLE;
      // Each digest once on the line: two thrown values described alike share one.
      const record = (entry: CapturedError) => {
        if (!log.errors.some((seen) => seen.digest === entry.digest)) log.errors.push(entry);
      };
      try {
        const ray = c.get("ray");
        const described = describeThrown(error);
        digest = digestOf(described, ray);
        (byValue ??= new Map()).set(error, digest);
        record({ digest, message: described.message, stack: described.stack });
        report(c, reportError, { error, digest, route: log.route, ray, request: c.req.raw, env: c.env });
      } catch (failure) {
        console.error("capturing an error failed", failure);
        record({ digest, message: "An error that could not be captured" });
      }
      return digest;
    });
    await next();
  };
}

function report(
  c: Parameters<MiddlewareHandler<AppEnv>>[0],
  reportError: ReportError,
  report: Omit<ErrorReport, "release">,
) {
  const sent = Promise.resolve()
    .then(() => reportError({ ...report, release: c.get("app").manifest.build }))
    .catch((failure: unknown) => console.error("reportError failed", failure));
  waitUntil(c, sent);
}

/** ctx.waitUntil, where there is an execution context (a unit test's app.request has none). */
export function waitUntil(
  c: { executionCtx: { waitUntil(promise: Promise<unknown>): void } },
  promise: Promise<unknown>,
): void {
  try {
    c.executionCtx.waitUntil(promise);
  } catch {
    // No execution context: the promise still runs.
  }
}
