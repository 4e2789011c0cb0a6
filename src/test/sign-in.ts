// Signing a visitor up and in with a soft passkey, through the example's passkey endpoints
// (/sign-in/options, then /sign-in/verify with the attempt cookie), as the sign-in page's script does.
import { assert, register, softAuthenticator, type SoftAuthenticator } from "./soft-authenticator";
import type { Visitor } from "./visitor";

export interface SignInOptions {
  /** Where to go after signing in (the verify answer's `location` is the same-site part of it). */
  next?: string;
  /** The endpoints' paths, if a product moved them. */
  paths?: { options: string; verify: string };
}

/** The account a visitor made with `signUp`; the visitor holds its session cookie. */
export interface Account {
  accountId: string;
  /** The session cookie as sent back (`__Host-session=...`). */
  session: string;
  /** The session token alone. */
  token: string;
  /** The passkey: sign in with it again (`signIn`), or bend what it sends. */
  authenticator: SoftAuthenticator;
  /** The verify answer's Set-Cookie lines, as sent. */
  setCookies: string[];
  /** Where the verify answer sends the visitor. */
  location: string;
}

const PATHS = { options: "/sign-in/options", verify: "/sign-in/verify" };
const SESSION = "__Host-session";

async function ceremony(visitor: Visitor, start: unknown, options: SignInOptions) {
  const paths = options.paths ?? PATHS;
  const response = await visitor.json(paths.options, start);
  if (response.status !== 200)
    throw new Error(`${paths.options}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { options: { challenge: string; user: { id: string } } };
}

export async function signUp(visitor: Visitor, name: string, options: SignInOptions = {}): Promise<Account> {
  const authenticator = await softAuthenticator();
  const started = await ceremony(visitor, { kind: "register", name }, options);
  const credential = await register(authenticator, started.options, { origin: visitor.origin });
  const verify = await visitor.json((options.paths ?? PATHS).verify, {
    kind: "register",
    credential,
    next: options.next,
  });
  if (verify.status !== 200) throw new Error(`verify: ${verify.status} ${await verify.text()}`);
  const { location } = (await verify.json()) as { location: string };
  const session = visitor.cookies.get(SESSION)!;
  return {
    accountId: started.options.user.id,
    session,
    token: session.slice(session.indexOf("=") + 1),
    authenticator,
    setCookies: verify.headers.getSetCookie(),
    location,
  };
}

export async function signIn(
  visitor: Visitor,
  authenticator: SoftAuthenticator,
  options: SignInOptions = {},
): Promise<Response> {
  const started = await ceremony(visitor, { kind: "authenticate" }, options);
  const credential = await assert(authenticator, started.options, { origin: visitor.origin });
  return visitor.json((options.paths ?? PATHS).verify, {
    kind: "authenticate",
    credential,
    next: options.next,
  });
}
