// POST /sign-in/options and /sign-in/verify: the two round trips of a passkey ceremony that creates
// an account or signs one in (the page's script, src/app/auth/passkey-client.ts, makes them). Same
// site only (the runtime refuses other sites' posts); each step counts against the visitor's limit.
import type { EndpointArgs } from "verge";
import { createSession, nowSeconds } from "verge/server";
import {
  authenticationOptions,
  clearedAttemptCookie,
  parseAuthenticationResponse,
  parseRegistrationResponse,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
} from "../auth/passkeys.server";
import {
  answer,
  ceremonyLimit,
  displayName,
  jsonBody,
  nextPath,
  notVerified,
  refused,
} from "../auth/ceremony.server";
import { deviceName } from "../auth/device-name";
import { describeNewSession } from "../db/account-security.server";

export const middleware = [ceremonyLimit];

export async function POST({ request, url, params, env }: EndpointArgs<"/sign-in/:step">) {
  if (params.step !== "options" && params.step !== "verify") return refused(404, "No such step.");
  const body = await jsonBody(request);
  const kind = body?.kind;
  if (!body || (kind !== "register" && kind !== "authenticate")) {
    return refused(400, 'Send JSON with "kind": "register" or "authenticate".');
  }
  const now = nowSeconds();
  if (params.step === "options") {
    if (kind === "authenticate") {
      const { options, cookie } = await authenticationOptions(env.DB, url, now);
      return answer({ options }, 200, [cookie]);
    }
    const name = displayName(body.name);
    if (name === null)
      return refused(422, "A display name is 1 to 60 characters, with no control characters.");
    const { options, cookie } = await registrationOptions(env.DB, url, { displayName: name }, now);
    return answer({ options }, 200, [cookie]);
  }
  const verified =
    kind === "register"
      ? await registered(env, request, body.credential, now)
      : await authenticated(env, request, body.credential, now);
  if (!verified) return notVerified();
  // The session this browser carried (another account's, or a stale one of this) ends here.
  const { session, cookie } = await createSession(env.DB, verified, now, request);
  // Its owner sees the new session, on which device, in the account's sessions and events.
  const device = deviceName(request.headers.get("User-Agent"));
  await describeNewSession(env.DB, { sessionId: session.id, accountId: verified, device, now });
  return answer({ location: nextPath(body.next) }, 200, [cookie, clearedAttemptCookie()]);
}

type Env = EndpointArgs["env"];

/** The new account's id, once its first passkey verified. */
async function registered(env: Env, request: Request, credential: unknown, now: number) {
  const response = parseRegistrationResponse(credential);
  if (!response) return null;
  const result = await verifyRegistration(env.DB, request, response, {
    name: "Passkey 1",
    signedIn: null,
    now,
  });
  return result.ok ? result.accountId : null;
}

/** The account a passkey signed in, once verified. */
async function authenticated(env: Env, request: Request, credential: unknown, now: number) {
  const response = parseAuthenticationResponse(credential);
  if (!response) return null;
  const result = await verifyAuthentication(env.DB, request, response, now);
  return result.ok ? result.accountId : null;
}
