// Who the visitor is: the middleware that reads the session once per request (one D1 query with
// its account, at the primary; none without a session cookie) and puts the account in the request context.
import {
  createContext,
  defineMiddleware,
  redirect,
  type Middleware,
  type MiddlewareArgs,
  type RequestContext,
} from "verge";
import { nowSeconds, primaryDB, readSession } from "verge/server";
import type { Account } from "../db/accounts.server";
import { LAST_USE_STEP_S, recordSessionUse } from "../db/account-security.server";

/** The signed-in visitor's account, or null for a signed-out one (set by the middleware below). */
export const accountKey = createContext<Account | null>("account");

/** The signed-in visitor's session: its id (never shown), its start and its latest passkey proof. */
export interface VisitorSession {
  id: string;
  createdAt: number;
  /** When this session's visitor last proved it was them with a passkey (Unix seconds), or null. */
  provedAt: number | null;
}

/** The signed-in visitor's session, or null (set with accountKey). */
export const sessionKey = createContext<VisitorSession | null>("session");

/** How long a passkey proof lets this session change how the account is reached (seconds). */
export const PROOF_TTL_S = 5 * 60;

/** What the session row gives besides the page's own `select`: read in the same query. */
const SESSION_COLUMNS = { session_proved_at: "s.proved_at", session_last_used_at: "s.last_used_at" };

/**
 * What a page reads with the session, in its one query: by name, SQL over the session row `s`
 * (its `account_id`), e.g. a subquery of the account's own rows. Empty for a signed-out visitor.
 */
export const visitorReadKey = createContext<Record<string, unknown>>("visitor-read");

/** SQL expressions by name, over the session row `s`: code, never input. */
export type VisitorSelect = Readonly<Record<string, string>>;

/** The SESSION_MISS_LIMITER's period (wrangler.toml). */
const SESSION_MISS_PERIOD_S = 60;
const SESSION_MISS_LIMITS = (env: MiddlewareArgs["env"]) => ({
  visitor: [env.SESSION_MISS_LIMITER, "SESSION_MISS_LIMITER"] as const,
  network: [env.SESSION_MISS_NETWORK_LIMITER, "SESSION_MISS_NETWORK_LIMITER"] as const,
});

/** The session's account, read once per request: the second middleware to ask finds it in the context. */
async function visitorAccount(
  { request, env, ctx, context, headers }: MiddlewareArgs,
  select: VisitorSelect,
): Promise<Account | null> {
  const known = context.find(accountKey);
  if (known !== undefined) return known;
  const now = nowSeconds();
  // At the primary: a replica that has not caught up would let a revoked or expired session in,
  // and would sign out (and clear the cookie of) a session made since it last caught up.
  const read = await readSession(primaryDB(env), request, {
    now,
    waitUntil: (promise) => ctx.waitUntil(promise),
    also: { table: "accounts", columns: ["display_name"], select: { ...select, ...SESSION_COLUMNS } },
    // A dead cookie is removed; a visitor sending tokens that name nothing stops costing queries.
    clear: (cookie) => headers.append("Set-Cookie", cookie),
    misses: { limits: SESSION_MISS_LIMITS(env), periodS: SESSION_MISS_PERIOD_S },
  });
  const { session_proved_at: provedAt, session_last_used_at: lastUsedAt, ...joined } = read?.joined ?? {};
  const account = read && { id: read.session.accountId, displayName: String(joined.display_name) };
  // The expiry slid: the cookie's Max-Age with it (never on a cached answer: the runtime skips storing it).
  if (read?.cookie) headers.append("Set-Cookie", read.cookie);
  context.set(accountKey, account);
  context.set(visitorReadKey, joined);
  context.set(
    sessionKey,
    read && {
      id: read.session.id,
      createdAt: read.session.createdAt,
      provedAt: typeof provedAt === "number" ? provedAt : null,
    },
  );
  // The account page shows each session's last use: written after the answer, once a step.
  const used = typeof lastUsedAt === "number" ? lastUsedAt : (read?.session.createdAt ?? now);
  if (read && now - used >= LAST_USE_STEP_S) ctx.waitUntil(recordSessionUse(env.DB, read.session.id, now));
  return account;
}

/**
 * The session middleware, named `session` for the request's timings (`middleware:session`; a
 * function's own name does not survive the production build). `required`: see requireAccount.
 */
function sessionMiddleware(
  required: boolean,
  select: (args: MiddlewareArgs) => VisitorSelect = () => ({}),
): Middleware {
  return defineMiddleware(required ? "requireAccount" : "session", async (args, next) => {
    const account = await visitorAccount(args, select(args));
    if (!required || account) return next();
    // An API client (a script's fetch of an endpoint) is told; a visitor goes to sign in, then comes back.
    if (args.kind === "endpoint") {
      const headers = { "Cache-Control": "no-store" };
      return Response.json({ error: { message: "Sign in first." } }, { status: 401, headers });
    }
    return redirect(`/sign-in?next=${encodeURIComponent(args.url.pathname)}`);
  });
}

/** Reads the visitor (signed in or not) for the loaders and actions below: `context.get(accountKey)`. */
export const withVisitor = sessionMiddleware(false);

/**
 * `withVisitor`, and in the same D1 query what `select` names for this request
 * (`context.get(visitorReadKey)`): a page that needs the visitor's own rows adds no query of its own.
 */
export const withVisitorReading = (select: (args: MiddlewareArgs) => VisitorSelect) =>
  sessionMiddleware(false, select);

/**
 * Lets only a signed-in visitor through: a signed-out one goes to /sign-in?next=<this path> (a
 * document, page data, a form), or an endpoint's client gets 401 JSON. `middleware:requireAccount`.
 */
export const requireAccount = sessionMiddleware(true);

/**
 * The Cache-Control of every page that shows an account's own data (its HTML and page data): no
 * copy anywhere, so once its session ends Back cannot show it from the HTTP cache without a
 * request, and Chromium keeps no such page in its back/forward cache past a change of cookies.
 */
export const ACCOUNT_CACHE_CONTROL = { html: "no-store", data: "no-store" } as const;

/**
 * What a sign-out answer also sends: the browser drops this site's HTTP cache and the pages of its
 * back/forward cache. Not "cookies": it would clear every cookie of the registrable domain (other
 * apps on it included), and the session cookie is cleared by name anyway.
 */
export const SIGNED_OUT_HEADERS: [string, string][] = [["Clear-Site-Data", '"cache"']];

/** The signed-in account below `requireAccount` (a programming error anywhere else). */
export function signedIn(context: RequestContext): Account {
  const account = context.get(accountKey);
  if (!account) throw new Error("signedIn(): no account: list requireAccount in the middleware above");
  return account;
}

/** The session below `requireAccount` (a programming error anywhere else). */
export function signedInSession(context: RequestContext): VisitorSession {
  const session = context.get(sessionKey);
  if (!session) throw new Error("signedInSession(): no session: list requireAccount in the middleware above");
  return session;
}

/** Whether this session proved, with a passkey, that it is the account's owner in the last five minutes. */
export function freshlyProved(context: RequestContext, now: number): boolean {
  const { provedAt } = signedInSession(context);
  return provedAt !== null && provedAt <= now && now - provedAt < PROOF_TTL_S;
}

/** What a change refused for want of a fresh proof tells the visitor. */
export const PROOF_NEEDED =
  "Confirm it's you with one of your passkeys first (Confirm with a passkey): adding or removing a passkey needs a proof from the last five minutes.";
