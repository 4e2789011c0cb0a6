// Cookies for loaders, actions, middleware and endpoints: Set-Cookie values with safe defaults and
// a request's cookies read, on hono's own serializer and parser (hono/utils/cookie).
import { parse, serialize } from "hono/utils/cookie";

export interface CookieOptions {
  /** Seconds until it expires (Max-Age); without it or `expires`, it lasts the browser session. */
  maxAge?: number;
  expires?: Date;
  /** Default "/". A `__Host-` name is always "/". */
  path?: string;
  /** Default none (this host only). A `__Host-` name never has one. */
  domain?: string;
  /** Default true: page scripts cannot read it. */
  httpOnly?: boolean;
  /** Default true: sent over https only (browsers treat http://localhost as secure). */
  secure?: boolean;
  /** Default "Lax": not sent with another site's posts or subrequests. */
  sameSite?: "Strict" | "Lax" | "None";
  partitioned?: boolean;
}

/**
 * A `Set-Cookie` value: `setCookie("theme", "dark", { maxAge: 86400 })`. Defaults: `Path=/`,
 * `HttpOnly`, `Secure`, `SameSite=Lax`. A `__Host-` name is forced to its rules (Secure, Path=/, no
 * Domain), so the browser keeps it; a `__Secure-` name to Secure. Throws on a name or option a
 * browser would not take (hono's checks).
 */
export function setCookie(name: string, value: string, options: CookieOptions = {}): string {
  const { path = "/", httpOnly = true, secure = true, sameSite = "Lax", ...rest } = options;
  const opt = { ...rest, path, httpOnly, secure, sameSite };
  if (/^__host-/i.test(name)) Object.assign(opt, { secure: true, path: "/", domain: undefined });
  else if (/^__secure-/i.test(name)) opt.secure = true;
  return serialize(name, value, opt as Parameters<typeof serialize>[2]);
}

/** A `Set-Cookie` value that removes the cookie `name` (give the `path`/`domain` it was set with). */
export function deleteCookie(name: string, options: Omit<CookieOptions, "maxAge" | "expires"> = {}): string {
  return setCookie(name, "", { ...options, maxAge: 0, expires: new Date(0) });
}

/** The value of the cookie `name` the request carries, decoded; undefined if none (or malformed). */
export function getCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("Cookie");
  return header === null ? undefined : parse(header, name)[name];
}
