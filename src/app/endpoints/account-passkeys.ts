// POST /account/passkeys/options and /verify: the signed-in visitor proves it is them with one of the
// account's passkeys (kind "authenticate"), or adds a passkey, another device (kind "register"),
// which needs such a proof from the last five minutes in this session: a stolen session cookie
// alone cannot add the thief's passkey. Its middleware counts each step against the visitor's
// ceremony limit, then lets only a signed-in visitor through (401 JSON for anyone else).
import type { EndpointArgs } from "verge";
import { nowSeconds } from "verge/server";
import {
  authenticationOptions,
  clearedAttemptCookie,
  parseAuthenticationResponse,
  parseRegistrationResponse,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
} from "../auth/passkeys.server";
import { answer, ceremonyLimit, jsonBody, notVerified, refused } from "../auth/ceremony.server";
import { deviceName } from "../auth/device-name";
import {
  freshlyProved,
  PROOF_NEEDED,
  requireAccount,
  signedIn,
  signedInSession,
} from "../auth/session.server";
import { listPasskeys } from "../db/accounts.server";
import { recordEvent, recordProof } from "../db/account-security.server";

export const middleware = [ceremonyLimit, requireAccount];

const BACK = "/account/passkeys";

export async function POST({ request, url, params, env, context }: EndpointArgs<"/account/passkeys/:step">) {
  if (params.step !== "options" && params.step !== "verify") return refused(404, "No such step.");
  const body = await jsonBody(request);
  const kind = body?.kind;
  if (!body || (kind !== "register" && kind !== "authenticate")) {
    return refused(400, 'Send JSON with "kind": "register" or "authenticate".');
  }
  const account = signedIn(context);
  const now = nowSeconds();
  // Checked before anything is read or written: without a fresh proof, nothing happens.
  if (kind === "register" && !freshlyProved(context, now)) return refused(403, PROOF_NEEDED);
  const existing = await listPasskeys(env.DB, account.id);
  if (params.step === "options") {
    const { options, cookie } =
      kind === "register"
        ? await registrationOptions(env.DB, url, { account, existing }, now)
        : await authenticationOptions(env.DB, url, now, { accountId: account.id, existing });
    return answer({ options }, 200, [cookie]);
  }
  if (kind === "authenticate") {
    const response = parseAuthenticationResponse(body.credential);
    const result = response && (await verifyAuthentication(env.DB, request, response, now, account.id));
    if (!result?.ok) return notVerified();
    await recordProof(env.DB, signedInSession(context).id, now);
    return answer({ location: BACK }, 200, [clearedAttemptCookie()]);
  }
  const response = parseRegistrationResponse(body.credential);
  if (!response) return notVerified();
  const name = `Passkey ${existing.length + 1}`;
  const result = await verifyRegistration(env.DB, request, response, { name, signedIn: account.id, now });
  if (!result.ok) return notVerified();
  const device = deviceName(request.headers.get("User-Agent"));
  await recordEvent(env.DB, account.id, { kind: "passkey-added", at: now, device, detail: name });
  return answer({ location: BACK }, 200, [clearedAttemptCookie()]);
}
