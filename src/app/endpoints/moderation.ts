// POST /hooks/moderation: a moderation service hides a guestbook entry. A webhook: taken from any
// site, it trusts only a body signed with MODERATION_SECRET (docs/operating.md, "Moderation").
//   X-Signature: sha256=<hex of HMAC-SHA256(MODERATION_SECRET, the raw body)>
//   {"hide": <entry id>}
import type { EndpointArgs } from "verge";
import { hideEntry } from "../db/guestbook.server";

export const crossSite = true;

/** Shorter secrets are refused: a guessable key would let anyone hide any entry. */
const MIN_SECRET_BYTES = 32;
const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

const refused = (status: number, message: string) => Response.json({ error: { message } }, { status });

const hexBytes = (hex: string) => new Uint8Array(hex.match(/../g)!.map((byte) => parseInt(byte, 16)));

/** Whether `signature` is the body's HMAC under `secret`: the runtime's verify compares in constant time. */
async function signed(
  secret: string,
  signature: Uint8Array<ArrayBuffer>,
  body: ArrayBuffer,
): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  return crypto.subtle.verify("HMAC", key, signature, body);
}

/** The entry id a verified body names, or null: exactly `{"hide": <positive integer>}`. */
function entryId(body: ArrayBuffer): number | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null || Object.keys(parsed).join() !== "hide") return null;
  const id = (parsed as { hide: unknown }).hide;
  return Number.isSafeInteger(id) && (id as number) > 0 ? (id as number) : null;
}

export async function POST({ request, env }: EndpointArgs<"/hooks/moderation">) {
  const secret = env.MODERATION_SECRET ?? "";
  if (new TextEncoder().encode(secret).byteLength < MIN_SECRET_BYTES) {
    // The operator's to fix; the sender only learns that it is not let in.
    console.warn(
      `/hooks/moderation refused a request: MODERATION_SECRET is ${secret ? "shorter than 32 bytes" : "not set"}`,
    );
    return refused(401, "This webhook is not accepting requests.");
  }
  const signature = SIGNATURE.exec(request.headers.get("X-Signature") ?? "")?.[1];
  if (!signature) return refused(401, "Sign the body: X-Signature: sha256=<hex HMAC-SHA256>.");
  // The raw bytes, as signed (the runtime refuses a body over 1 MiB with 413).
  const body = await request.arrayBuffer();
  if (!(await signed(secret, hexBytes(signature), body)))
    return refused(401, "The signature does not match the body.");
  const id = entryId(body);
  if (id === null) return refused(400, 'The body must be {"hide": <entry id>}.');
  if (!(await hideEntry(env.DB, id))) return refused(404, `There is no entry ${id}.`);
  return Response.json({ hidden: id });
}
