// Redirects from loaders, actions and middleware: made by page code, checked again when the
// answer is built (a Redirect can be forged, and the request's origin is known only then).

const REDIRECT = Symbol.for("verge.redirect");

export interface Redirect {
  [REDIRECT]: true;
  location: string;
  /** Headers of the redirect's answer (a `Set-Cookie` on sign-in, say). */
  headers?: HeadersInit;
}

/**
 * A same-site path: one "/" then anything but another "/" or "\\" ("//host" and "/\\host" name
 * another host to a browser), and no control characters (the URL parser drops tabs and
 * newlines, so "/\t/host" is "//host" too).
 */
const SAME_SITE_PATH = /^\/(?![/\\])[^\x00-\x1f\x7f]*$/;

/**
 * The Location to send for `location`, or null when it may not be sent: a same-site path, or an
 * absolute http(s) URL of `page`'s origin (without `page`, of any: redirect() cannot know the
 * request). Such a URL stays absolute: its path alone may be "//host".
 */
function checkedLocation(location: unknown, page?: URL): string | null {
  if (typeof location !== "string") return null;
  if (SAME_SITE_PATH.test(location)) return location;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!page) return location;
  return url.origin === page.origin ? url.href : null;
}

function refused(location: unknown, where: string): TypeError {
  return new TypeError(
    `redirect() takes a same-site path ("/guestbook") or an absolute URL of the page's own origin` +
      `${where}; got ${JSON.stringify(location)}`,
  );
}

/**
 * Return (or throw) from a loader or action to send the visitor elsewhere: to a same-site path
 * ("/guestbook?page=2") or an absolute URL of the page's own origin. Anything else (another
 * site, "//host", "javascript:") throws here, or, for an absolute URL of another origin, when
 * the answer is built: a programming error, which tests catch.
 */
export function redirect(location: string, options: { headers?: HeadersInit } = {}): Redirect {
  if (checkedLocation(location) === null) throw refused(location, "");
  return { [REDIRECT]: true, location, headers: options.headers };
}

/** Where `to` sends a visitor of `page`, checked again (a Redirect can be forged, and its origin is known only now). */
export function redirectLocation(to: Redirect, page: URL): string {
  const location = checkedLocation(to.location, page);
  if (location === null) throw refused(to.location, ` (${page.origin})`);
  return location;
}

export function isRedirect(value: unknown): value is Redirect {
  return typeof value === "object" && value !== null && REDIRECT in value;
}
