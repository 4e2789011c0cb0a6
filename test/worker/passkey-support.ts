// Shared by the passkey tests: a ceremony run end to end between the server's functions and a
// soft authenticator, with the attempt cookie carried as a browser would.
import { env } from "cloudflare:workers";
import {
  authenticationOptions,
  parseAuthenticationResponse,
  parseRegistrationResponse,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
  type Registrant,
} from "../../src/app/auth/passkeys.server";
import { assert, register, type Bend, type SoftAuthenticator } from "verge/test";

export const SITE = "https://verge.test";
export const T0 = 1_900_000_000;

/** The `Cookie` header a browser sends back for a `Set-Cookie` value. */
export const cookieFrom = (setCookie: string) => setCookie.split(";")[0]!;

/** The verification POST, from `origin`, carrying the attempt cookie. */
export const post = (setCookie: string | null, origin = SITE) =>
  new Request(`${origin}/sign-in`, {
    method: "POST",
    headers: setCookie ? { Cookie: `theme=dark; ${cookieFrom(setCookie)}` } : {},
  });

/** Registration options for `who`, at `now`. */
export const startRegistration = (who: Registrant, now = T0, site = SITE) =>
  registrationOptions(env.DB, new URL(`${site}/sign-in`), who, now);

export const startSignIn = (now = T0, site = SITE) =>
  authenticationOptions(env.DB, new URL(`${site}/sign-in`), now);

/** Registers `authenticator` for `who` end to end; `bend` bends what it sends. */
export async function registerWith(
  authenticator: SoftAuthenticator,
  who: Registrant = { displayName: "Ada" },
  options: { bend?: Partial<Bend>; now?: number; verifyAt?: number; signedIn?: string | null } = {},
) {
  const ceremony = await startRegistration(who, options.now);
  // Adding a passkey happens signed in as that account, unless the test says otherwise.
  const signedIn =
    options.signedIn !== undefined ? options.signedIn : "account" in who ? who.account.id : null;
  const json = await register(authenticator, ceremony.options, { origin: SITE, ...options.bend });
  const response = parseRegistrationResponse(json)!;
  const result = await verifyRegistration(env.DB, post(ceremony.cookie), response, {
    name: "Test key",
    signedIn,
    now: options.verifyAt ?? options.now ?? T0,
  });
  return { ceremony, json, response, result };
}

/** Signs in with `authenticator` end to end. */
export async function signInWith(
  authenticator: SoftAuthenticator,
  options: { bend?: Partial<Bend>; now?: number; verifyAt?: number; signer?: CryptoKey } = {},
) {
  const ceremony = await startSignIn(options.now);
  const json = await assert(
    authenticator,
    ceremony.options,
    { origin: SITE, ...options.bend },
    options.signer,
  );
  const response = parseAuthenticationResponse(json)!;
  const result = await verifyAuthentication(
    env.DB,
    post(ceremony.cookie),
    response,
    options.verifyAt ?? options.now ?? T0,
  );
  return { ceremony, json, response, result };
}
