// How the app builds its answers: HTML, JSON, text and redirects with their exact content types.
// The security headers are added to every answer by headers.ts's middleware.
import { JSON_MEDIA_TYPE } from "../shared/protocol";
import { NO_STORE } from "./headers";

export const HTML_CONTENT_TYPE = "text/html; charset=utf-8";
export const TEXT_CONTENT_TYPE = "text/plain; charset=UTF-8";

type HeaderRecord = Readonly<Record<string, string>>;

/** An HTML answer (a string or a stream). */
export function htmlResponse(body: string | ReadableStream, status: number, headers: HeaderRecord = {}) {
  return new Response(body, { status, headers: { "Content-Type": HTML_CONTENT_TYPE, ...headers } });
}

/** A JSON answer (page data, actions, errors of both). */
export function jsonResponse(value: unknown, status: number, headers: HeaderRecord = {}) {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "Content-Type": JSON_MEDIA_TYPE, ...headers },
  });
}

/** A plain-text answer (requests that are neither pages nor actions: the relay, /assets/ misses). */
export function textResponse(text: string, status: number, headers: HeaderRecord = {}) {
  return new Response(text, { status, headers: { "Content-Type": TEXT_CONTENT_TYPE, ...headers } });
}

/** A redirect; a Location outside Latin-1 is percent-encoded (a header value cannot carry it). */
export function redirectResponse(location: string, status: number) {
  const safe = /[^\x00-\xFF]/.test(location) ? encodeURI(location) : location;
  // For this request alone: no cache, the browser's or a shared one, may replay it.
  return new Response(null, { status, headers: { Location: safe, "Cache-Control": NO_STORE } });
}
