// The D1 bookmark of this tab's latest write, sent with page-data and action requests so that
// whichever replica answers shows the visitor what they wrote. In memory only, for a short while.
import { D1_BOOKMARK_HEADER, D1_BOOKMARK_MAX_AGE_S } from "../src/shared/protocol";

let bookmark = "";
let until = 0;

/** `headers`, with the bookmark while it is fresh. */
export function withBookmark(headers: Record<string, string>): Record<string, string> {
  if (Date.now() < until) headers[D1_BOOKMARK_HEADER] = bookmark;
  return headers;
}

/**
 * Keeps an answer's bookmark: an action's (it wrote) starts the while; page data read from
 * ours sends a newer one, kept without prolonging it.
 */
export function keepBookmark(response: Response, wrote?: boolean): void {
  const value = response.headers.get(D1_BOOKMARK_HEADER);
  if (!value || !(wrote || Date.now() < until)) return;
  bookmark = value;
  if (wrote) until = Date.now() + D1_BOOKMARK_MAX_AGE_S * 1000;
}
