// The one place that turns errors into responses, by the kind of request that failed.
import { SERVER_ERROR_TEXT } from "./error-views";
import { clientManifest } from "./manifest";
import { ACTION_HEADER, DATA_HEADERS, STATUS } from "./protocol";
import type { AppContext } from "./context";
import { htmlResponse, jsonResponse, textResponse } from "./http";

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
export function fallbackHtml(title: string, body: string): string {
  const css = clientManifest.css ? `<link rel="stylesheet" href="${clientManifest.css}">` : "";
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><link rel="icon" href="data:,">${css}</head><body><main id="main">${body}</main></body></html>`;
}

export function serverErrorPage(digest: string): string {
  return fallbackHtml(
    "Application error",
    `<div role="alert" class="app-error"><h1>${SERVER_ERROR_TEXT}</h1><p class="digest">Digest: <code data-testid="digest">${escapeHtml(digest)}</code></p><p><a href="">Reload</a></p></div>`,
  );
}

export function errorResponse(error: unknown, c: AppContext): Response {
  const logged = c.get("log")?.kind ?? "html";
  // Only our client script sends X-Action: a plain HTML form post gets pages, not JSON.
  const kind = logged === "action" && !c.req.header(ACTION_HEADER) ? "html" : logged;
  if (error instanceof HttpError) {
    const headers = error.extra.headers ?? {};
    if (kind === "data") {
      return jsonResponse(c, { error: { message: error.message }, ...error.extra.body }, error.status, {
        ...DATA_HEADERS,
        ...headers,
      });
    }
    if (kind === "action") {
      return jsonResponse(
        c,
        { ok: false, error: { message: error.message }, ...error.extra.body },
        error.status,
        headers,
      );
    }
    if (kind === "html") {
      const page = fallbackHtml(
        error.message,
        `<h1>${escapeHtml(error.message)}</h1><p><a href="/">Go to the home page</a></p>`,
      );
      return htmlResponse(c, page, error.status, headers);
    }
    return textResponse(c, error.message, error.status, headers);
  }
  const digest = c.get("capture")(error);
  if (kind === "data") return jsonResponse(c, { error: { digest } }, STATUS.serverError, DATA_HEADERS);
  if (kind === "action") return jsonResponse(c, { ok: false, error: { digest } }, STATUS.serverError);
  if (kind === "html") return htmlResponse(c, serverErrorPage(digest), STATUS.serverError);
  return textResponse(c, `Internal error (digest ${digest})`, STATUS.serverError);
}
