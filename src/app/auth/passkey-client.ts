// The browser's half of a passkey ceremony: options from the server, the browser's own passkey
// prompt (its native JSON parsers and toJSON(), no library), the credential back. Loaded by a
// dynamic import when a passkey button is pressed, so only /sign-in and /account/passkeys fetch it.

type Json = Record<string, unknown>;

async function post(path: string, body: Json): Promise<Json> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as { error?: { message?: string } } & Json;
  if (!response.ok) throw new Error(json.error?.message ?? "Something went wrong: try again.");
  return json;
}

/**
 * Creates (`register`) or uses (`authenticate`) a passkey through `${base}/options` and
 * `${base}/verify`, sending `body` to both; resolves with where to go next.
 */
export async function passkeyCeremony(
  base: string,
  kind: "register" | "authenticate",
  body: Json,
): Promise<string> {
  const { options } = await post(`${base}/options`, { kind, ...body });
  let credential: Credential | null;
  try {
    credential =
      kind === "register"
        ? await navigator.credentials.create({
            publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(
              options as PublicKeyCredentialCreationOptionsJSON,
            ),
          })
        : await navigator.credentials.get({
            publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(
              options as PublicKeyCredentialRequestOptionsJSON,
            ),
          });
  } catch {
    throw new Error("No passkey was used (the prompt was closed, or timed out): try again.");
  }
  if (!credential) throw new Error("No passkey was used: try again.");
  const { location } = await post(`${base}/verify`, {
    kind,
    credential: (credential as PublicKeyCredential).toJSON(),
    ...body,
  });
  return String(location);
}
