// The signed-in product tests' former helpers, now verge/test's visitor: kept with their old
// signatures (a cookie passed by hand, a fetch to go through) for tests not yet moved to it.
import { cookiesOf, visitor, type Send, type SoftAuthenticator } from "verge/test";

export { cookiesOf };

/** How a test reaches the product: the worker itself, or an app of its own (to read its log lines). */
export type Fetch = Send;

/** The visitor with `cookie` (if any), through `via` (if given). */
const as = (cookie: string, via?: Fetch) => visitor({ cookie, fetch: via });

/** A same-site JSON post from a visitor of its own, with `cookie` (if any). */
export const postJson = (path: string, body: unknown, cookie = "", via?: Fetch) =>
  as(cookie, via).json(path, body);

export interface Visitor {
  /** The Cookie header that names the session. */
  cookie: string;
  token: string;
  accountId: string;
  authenticator: SoftAuthenticator;
  /** The verify answer's Set-Cookie lines, as sent. */
  setCookies: string[];
  location: string;
}

/** Creates an account named `name` with a new passkey, signed in. */
export async function signUp(name: string, next?: string, via?: Fetch): Promise<Visitor> {
  const account = await as("", via).signUp(name, { next });
  return { ...account, cookie: account.session };
}

/** Signs in again with `authenticator` (a passkey of an account); the answer as sent. */
export const signInWith = (authenticator: SoftAuthenticator, next?: string, via?: Fetch) =>
  as("", via).signIn(authenticator, { next });

/** A GET as the visitor with `cookie`. */
export const getAs = (path: string, cookie = "", headers: Record<string, string> = {}, via?: Fetch) =>
  as(cookie, via).get(path, { headers });

/** A plain HTML form post (no JavaScript) as the visitor with `cookie`. */
export const formAs = (path: string, fields: Record<string, string>, cookie = "", via?: Fetch) =>
  as(cookie, via).form(path, fields);
