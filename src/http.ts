// How the app builds its answers: every response is constructed here, its headers and the
// request's security headers set in one go (see respond()).
import type { AppContext } from "./context";
import { withSecurityHeaders } from "./security-headers";
import { JSON_MEDIA_TYPE } from "./protocol";

export const HTML_CONTENT_TYPE = "text/html; charset=utf-8";
export const TEXT_CONTENT_TYPE = "text/plain; charset=UTF-8";

type HeaderRecord = Readonly<Record<string, string>>;

/**
 * A response with `headers` and the request's security headers, all passed to the constructor.
 * Setting them one by one on a finished response, as a middleware must, costs a runtime call
 * each and gives the response's Headers a JavaScript object that only a major GC frees
 * (BENCHMARKS.md, performance pass 5). The security middleware leaves this response alone.
 */
export function respond(
  c: AppContext,
  body: BodyInit | null,
  status: number,
  headers: HeaderRecord,
): Response {
  const response = new Response(body, { status, headers: withSecurityHeaders(c, headers) });
  c.set("securedResponse", response);
  return response;
}

/** An HTML answer (a string or a stream) with the exact content type DESIGN.md fixes. */
export function htmlResponse(
  c: AppContext,
  body: string | ReadableStream,
  status: number,
  headers: HeaderRecord = {},
): Response {
  return respond(c, body, status, { "Content-Type": HTML_CONTENT_TYPE, ...headers });
}

/** A JSON answer (page data, actions, errors of both). */
export function jsonResponse(
  c: AppContext,
  value: unknown,
  status: number,
  headers: HeaderRecord = {},
): Response {
  return respond(c, JSON.stringify(value), status, { "Content-Type": JSON_MEDIA_TYPE, ...headers });
}

/** A plain-text answer (requests that are neither pages nor actions: the relay, /assets/ misses). */
export function textResponse(
  c: AppContext,
  text: string,
  status: number,
  headers: HeaderRecord = {},
): Response {
  return respond(c, text, status, { "Content-Type": TEXT_CONTENT_TYPE, ...headers });
}

/** A redirect; a Location outside Latin-1 is percent-encoded (a header value cannot carry it). */
export function redirectResponse(c: AppContext, location: string, status: number): Response {
  return respond(c, null, status, {
    Location: /[^\x00-\xFF]/.test(location) ? encodeURI(location) : location,
  });
}
