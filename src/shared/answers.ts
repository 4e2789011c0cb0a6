// Data with an answer's own status and headers: what a loader or action returns when its answer
// needs more than the value (a cookie, a 404 for a missing record, a Cache-Control of its own).
const DATA = Symbol.for("verge.data");

export interface AnswerOptions {
  /** The answer's status (a loader's page: 200 unless said; a 4xx page keeps its layout). */
  status?: number;
  /** Added to the answer: `[["Set-Cookie", setCookie(...)]]`, `{ "X-Robots-Tag": "noindex" }`. */
  headers?: HeadersInit;
}

export interface DataWith<T> {
  [DATA]: true;
  value: T;
  status?: number;
  headers?: HeadersInit;
}

/**
 * Returns `value` from a loader or action with the answer's `status` and `headers`:
 * `return data({ theme }, { headers: [["Set-Cookie", setCookie("theme", theme)]] })`. The page
 * receives `value` as if it had been returned alone.
 */
export function data<T>(value: T, options: AnswerOptions = {}): DataWith<T> {
  const { status, headers } = options;
  if (status !== undefined && (!Number.isInteger(status) || status < 200 || status > 599)) {
    throw new RangeError(`data() takes a status from 200 to 599, not ${status}`);
  }
  return { [DATA]: true, value, status, headers };
}

export function isData(value: unknown): value is DataWith<unknown> {
  return typeof value === "object" && value !== null && DATA in value;
}

/** A result and what it adds to its answer, whether or not it came through data(). */
export function unwrapData(result: unknown): { value: unknown; status?: number; headers?: HeadersInit } {
  return isData(result) ? result : { value: result };
}

/** Appends every header of `extra` to `target` (Set-Cookie stays one header per cookie). */
export function appendHeaders(target: Headers, extra: HeadersInit | undefined): void {
  if (extra === undefined) return;
  new Headers(extra).forEach((value, name) => {
    if (name === "set-cookie") return;
    target.set(name, value);
  });
  for (const cookie of new Headers(extra).getSetCookie()) target.append("Set-Cookie", cookie);
}
