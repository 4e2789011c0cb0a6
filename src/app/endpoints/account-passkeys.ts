// POST /account/passkeys/options and /verify: adds a passkey (another device) to the signed-in
// account. Its middleware counts each step against the visitor's ceremony limit, then lets only a
// signed-in visitor through (401 JSON for anyone else).
import type { EndpointArgs } from "verge";
import { nowSeconds } from "verge/server";
import { registrationOptions, verifyRegistration, parseRegistrationResponse } from "../auth/passkeys.server";
import { clearedAttemptCookie } from "../auth/passkeys.server";
import { answer, ceremonyLimit, jsonBody, notVerified, refused } from "../auth/ceremony.server";
import { requireAccount, signedIn } from "../auth/session.server";
import { listPasskeys } from "../db/accounts.server";

export const middleware = [ceremonyLimit, requireAccount];

export async function POST({ request, url, params, env, context }: EndpointArgs<"/account/passkeys/:step">) {
  if (params.step !== "options" && params.step !== "verify") return refused(404, "No such step.");
  const body = await jsonBody(request);
  if (!body) return refused(400, "Send a JSON object.");
  const account = signedIn(context);
  const now = nowSeconds();
  const existing = await listPasskeys(env.DB, account.id);
  if (params.step === "options") {
    const { options, cookie } = await registrationOptions(env.DB, url, { account, existing }, now);
    return answer({ options }, 200, [cookie]);
  }
  const response = parseRegistrationResponse(body.credential);
  if (!response) return notVerified();
  const result = await verifyRegistration(env.DB, request, response, {
    name: `Passkey ${existing.length + 1}`,
    signedIn: account.id,
    now,
  });
  if (!result.ok) return notVerified();
  return answer({ location: "/account/passkeys" }, 200, [clearedAttemptCookie()]);
}
