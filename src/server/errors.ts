// HttpError, and the one place errors become responses, in the format the request's kind asks for.
import { STATUS } from "../shared/protocol";
import { SERVER_ERROR_TEXT } from "../shared/error-views";
import type { AppContext, ErrorFormat } from "./context";
import { answerHeaders, NO_STORE } from "./headers";
import { htmlResponse, jsonResponse, textResponse } from "./respond";

/** An error with an HTTP status whose message is safe to show (written by us, not thrown by a library). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra JSON fields for page-data and action answers, and response headers. */
    readonly extra: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A complete, standalone HTML page: it must render even when React or the app is what broke. */
export function fallbackHtml(c: AppContext, title: string, body: string): string {
  const css = (c.get("app")?.manifest.css ?? [])
    .map((href) => `<link rel="stylesheet" href="${href}">`)
    .join("");
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="data:,">${css}</head><body><main id="main">${body}</main></body></html>`;
}

export function serverErrorPage(c: AppContext, digest: string): string {
  return fallbackHtml(
    c,
    "Application error",
    `<div role="alert" class="app-error"><h1>${SERVER_ERROR_TEXT}</h1><p class="digest">Digest: <code data-testid="digest">${escapeHtml(digest)}</code></p><p><a href="">Reload</a></p></div>`,
  );
}

/**
 * Turns anything thrown while handling a request into its answer. An HttpError says what the
 * visitor did wrong; anything else (an Error, a string, null, a Response...) is captured and
 * answered with a digest and nothing of the error itself.
 */
export function errorResponse(c: AppContext, error: unknown, format: ErrorFormat): Response {
  if (error instanceof HttpError) {
    const headers = error.extra.headers ?? {};
    const { message, status } = error;
    switch (format) {
      case "data":
        return jsonResponse({ error: { message }, ...error.extra.body }, status, {
          ...answerHeaders("data"),
          ...headers,
        });
      case "action":
        return jsonResponse({ ok: false, error: { message }, ...error.extra.body }, status, {
          ...answerHeaders("action"),
          ...headers,
        });
      case "html": {
        const page = fallbackHtml(
          c,
          message,
          `<h1>${escapeHtml(message)}</h1><p><a href="/">Go to the home page</a></p>`,
        );
        return htmlResponse(page, status, { "Cache-Control": NO_STORE, ...headers });
      }
      case "json":
        return jsonResponse({ error: { message } }, status, { "Cache-Control": NO_STORE, ...headers });
      case "text":
        return textResponse(message, status, { "Cache-Control": NO_STORE, ...headers });
    }
  }
  const digest = c.get("capture")(error);
  switch (format) {
    case "data":
      return jsonResponse({ error: { digest } }, STATUS.serverError, answerHeaders("data"));
    case "action":
      return jsonResponse({ ok: false, error: { digest } }, STATUS.serverError, answerHeaders("action"));
    case "json":
      return jsonResponse({ error: { digest } }, STATUS.serverError, { "Cache-Control": NO_STORE });
    case "html":
      return htmlResponse(serverErrorPage(c, digest), STATUS.serverError, { "Cache-Control": NO_STORE });
    case "text":
      return textResponse(`Internal error (digest ${digest})`, STATUS.serverError, {
        "Cache-Control": NO_STORE,
      });
  }
}
