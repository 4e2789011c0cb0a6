// Deferred loader values: a top-level Promise in a loader's data streams into the
// same HTML response, and the browser hydrates it from the inline JSON it left behind.
import { use, type ReactNode } from "react";
import { DEFERRED_ATTR, type DeferredMarker, type ErrorPayload } from "./protocol";
import { scriptSafeJson } from "./serialize";
import { useNonce } from "./nonce";
import { RouteErrorView } from "./error-views";

/** What a deferred promise settles to once the server has dealt with a rejection. */
export type Settled<T> = { value: T } | { error: ErrorPayload };

const KEY = Symbol.for("verge.deferred-key");

/** A settled promise tagged with the key its value travels under. */
export type DeferredPromise<T = unknown> = Promise<Settled<T>> & { [KEY]: string };

export function tagDeferred<T>(key: string, settled: Promise<Settled<T>>): DeferredPromise<T> {
  return Object.assign(settled, { [KEY]: key });
}

/**
 * `settled` under `key`, as a promise marked settled the way React's use() reads at once (its
 * `status`/`value` protocol): no suspension, where a plain promise suspends once even if settled.
 */
export const settledDeferred = <T,>(key: string, settled: Settled<T>): DeferredPromise<T> =>
  Object.assign(Promise.resolve(settled), { [KEY]: key, status: "fulfilled", value: settled });

/** Marks a value `writtenAhead` (server only: the browser's bundle leaves it out). */
const WRITTEN = /* @__PURE__ */ Symbol.for("verge.deferred-written");

/**
 * Server: `promise`'s value is written once ahead of the boundaries that read it (a resumed
 * shell's visitor value), so none of them writes a script of its own. The browser learns it from
 * the embedded page data's marker (`ahead`), and renders none either.
 */
export function writtenAhead(promise: DeferredPromise): void {
  Object.assign(promise, { [WRITTEN]: true });
}

export function isDeferred(value: unknown): value is DeferredPromise {
  return value instanceof Promise && KEY in value;
}

export function isDeferredMarker(value: unknown): value is DeferredMarker {
  return typeof value === "object" && value !== null && "$deferred" in value;
}

const streamed = new Map<string, DeferredPromise>();

/**
 * In the browser: the value the server streamed for `key`, as an already-settled
 * thenable. Read at render time: React hydrates a Suspense boundary only once its
 * streamed content is in the document, and that content, or the value written once ahead
 * of it (a resumed shell's visitor value), carries the value.
 */
function readStreamedDeferred(key: string): DeferredPromise {
  const known = streamed.get(key);
  if (known) return known;
  const element = document.querySelector(`script[${DEFERRED_ATTR}="${CSS.escape(key)}"]`);
  const settled: Settled<unknown> = element
    ? (JSON.parse(element.textContent ?? "null") as Settled<unknown>)
    : { error: { digest: "unavailable" } };
  // Read by React's use() synchronously: no suspension during hydration.
  const promise = settledDeferred(key, settled);
  streamed.set(key, promise);
  return promise;
}

interface AwaitProps<T> {
  /** The loader's value: a Promise while streaming, the plain value after client navigation. */
  resolve: T | Promise<T>;
  children: (value: T) => ReactNode;
}

/**
 * Renders a deferred loader value; put it inside <Suspense> with a fallback. `children` is called
 * during Await's own render, not as a component of its own: a hook belongs in a component it
 * returns (an error shows the error view instead, and would skip the hook).
 */
export function Await<T>({ resolve, children }: AwaitProps<T>) {
  if (isDeferred(resolve)) {
    return (
      <AwaitDeferred
        promise={resolve as DeferredPromise<T>}
        render={children}
        // A promise is the server's (the browser's come as markers): only the server writes ahead.
        ahead={import.meta.env.SSR && WRITTEN in resolve}
      />
    );
  }
  if (isDeferredMarker(resolve)) {
    if (resolve.settled) return shown(resolve.settled as Settled<T>, children);
    const promise = readStreamedDeferred(resolve.$deferred) as DeferredPromise<T>;
    return <AwaitDeferred promise={promise} render={children} ahead={resolve.ahead} />;
  }
  return children(resolve as T);
}

/** What a settled value shows: the page's view of it, or the error view with its digest. */
const shown = <T,>(settled: Settled<T>, render: (value: T) => ReactNode) =>
  "error" in settled ? <RouteErrorView digest={settled.error.digest} /> : render(settled.value);

function AwaitDeferred<T>({
  promise,
  render,
  ahead,
}: {
  promise: DeferredPromise<T>;
  render: (value: T) => ReactNode;
  /** Its value went out ahead of the boundary (writtenAhead): no script of its own. */
  ahead: boolean | undefined;
}) {
  const settled = use(promise);
  const nonce = useNonce();
  const view = shown(settled, render);
  if (ahead) return view;
  return (
    <>
      {view}
      <script
        type="application/json"
        {...{ [DEFERRED_ATTR]: promise[KEY] }}
        nonce={nonce}
        suppressHydrationWarning
        // Written by the server; the browser hydrates from it and never writes it (a client
        // navigation's values come settled, without a script), so its bundle leaves the JSON out.
        dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? scriptSafeJson(settled) : "" }}
      />
    </>
  );
}
