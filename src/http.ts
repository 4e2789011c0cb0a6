// Small HTTP helpers shared by the worker's handlers.
export const HTML_CONTENT_TYPE = "text/html; charset=utf-8";

/** An HTML answer (a string or a stream) with the exact content type DESIGN.md fixes. */
export function htmlResponse(
  body: string | ReadableStream,
  status: number,
  headers: Record<string, string> = {},
): Response {
  return new Response(body, { status, headers: { "Content-Type": HTML_CONTENT_TYPE, ...headers } });
}
