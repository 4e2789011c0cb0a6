// What the passkey endpoints share (/sign-in/:step, /account/passkeys/:step): their rate limit, their
// JSON bodies and answers, where a visitor goes after signing in, and the display name's rule.
import * as v from "valibot";
import { defineMiddleware, redirect, withinVisitorLimit } from "verge";
import { clearedAttemptCookie } from "./passkeys.server";
import { textField } from "../text-field";

/** A display name: 1 to 60 characters, trimmed, no control characters (as the guestbook's name). */
export const DisplayName = textField({ label: "Display name", max: 60 });

/** The request's JSON object body, or null (not JSON, not an object). */
export async function jsonBody(request: Request): Promise<Record<string, unknown> | null> {
  try {
    const body: unknown = await request.json();
    return typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A JSON answer no cache keeps (it sets cookies, or says who the visitor is). */
export const answer = (body: unknown, status = 200, cookies: string[] = []) =>
  Response.json(body, {
    status,
    headers: [
      ["Cache-Control", "no-store"],
      ...cookies.map((cookie): [string, string] => ["Set-Cookie", cookie]),
    ],
  });

/** A refusal the page shows as it is: `{ error: { message } }`. */
export const refused = (status: number, message: string, cookies: string[] = []) =>
  answer({ error: { message } }, status, cookies);

/** A ceremony that did not verify: the attempt is spent either way, so its cookie goes. */
export const notVerified = () =>
  refused(400, "That passkey could not be checked: try again.", [clearedAttemptCookie()]);

/**
 * Where a visitor goes after signing in: `next` if it is a path of this site (redirect()'s check:
 * no other site, no "//host", no "javascript:"), else their account page.
 */
export function nextPath(next: unknown): string {
  if (typeof next !== "string" || !next.startsWith("/") || next.length > 2000) return "/account";
  try {
    redirect(next);
    return next;
  } catch {
    return "/account";
  }
}

/** The display name in a body, trimmed, or null. */
export function displayName(value: unknown): string | null {
  const result = v.safeParse(DisplayName, value);
  return result.success ? result.output : null;
}

/** The ceremony limiters' period (wrangler.toml): how long a visitor over a limit waits. */
export const LIMIT_PERIOD_S = 60;

/**
 * Counts every request to a ceremony's steps (signing in, proving, adding a passkey) against the
 * visitor's limit and their network's, before anything else runs: a refused one reads no session,
 * stores no challenge and takes none. Verifications count against limiters of their own, so a
 * ceremony's two steps leave a visitor as many ceremonies a minute as one would.
 * `middleware:ceremonyLimit`.
 */
export const ceremonyLimit = defineMiddleware("ceremonyLimit", async ({ request, env, params }, next) => {
  const within = await withinVisitorLimit(
    request,
    params.step === "verify"
      ? {
          visitor: [env.SIGN_IN_VERIFY_LIMITER, "SIGN_IN_VERIFY_LIMITER"],
          network: [env.SIGN_IN_VERIFY_NETWORK_LIMITER, "SIGN_IN_VERIFY_NETWORK_LIMITER"],
        }
      : {
          visitor: [env.SIGN_IN_LIMITER, "SIGN_IN_LIMITER"],
          network: [env.SIGN_IN_NETWORK_LIMITER, "SIGN_IN_NETWORK_LIMITER"],
        },
  );
  if (within) return next();
  const tooMany = refused(429, "Too many sign-in attempts in a short while: wait a minute, then try again.");
  tooMany.headers.set("Retry-After", String(LIMIT_PERIOD_S));
  return tooMany;
});
