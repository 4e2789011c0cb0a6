// POST /hooks/moderation: a moderation service hides a guestbook entry. A webhook: taken from any
// site, it trusts only a body signed with MODERATION_SECRET, with the time it was signed, within
// the last 5 minutes (docs/operating.md, "The moderation webhook").
//   X-Signature-Timestamp: <Unix seconds>
//   X-Signature: sha256=<hex of HMAC-SHA256(MODERATION_SECRET, "<timestamp>." + the raw body)>
//   {"hide": <entry id>}
import { withinVisitorLimit, type EndpointArgs } from "verge";
import { nowSeconds } from "verge/server";
import { hideEntry } from "../db/guestbook.server";

export const crossSite = true;

/** Shorter secrets are refused: a guessable key would let anyone hide any entry. */
const MIN_SECRET_BYTES = 32;
const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;
const TIMESTAMP = /^[0-9]{1,12}$/;
/** How far the signed time may be from the Worker's clock: a leaked signed body works this long at most. */
const WINDOW_S = 5 * 60;
/** The MODERATION_LIMITER's period (wrangler.toml): how long a sender over the limit waits. */
const LIMIT_PERIOD_S = 60;

const refused = (status: number, message: string) => Response.json({ error: { message } }, { status });

const hexBytes = (hex: string) => new Uint8Array(hex.match(/../g)!.map((byte) => parseInt(byte, 16)));

/**
 * Whether `signature` is the HMAC under `secret` of the timestamp, a dot and the body (so the time
 * cannot be changed apart from the body): the runtime's verify compares in constant time.
 */
async function signed(
  secret: string,
  signature: Uint8Array<ArrayBuffer>,
  timestamp: string,
  body: ArrayBuffer,
): Promise<boolean> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const prefix = new TextEncoder().encode(`${timestamp}.`);
  const message = new Uint8Array(prefix.byteLength + body.byteLength);
  message.set(prefix);
  message.set(new Uint8Array(body), prefix.byteLength);
  return crypto.subtle.verify("HMAC", key, signature, message);
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
  // Before the body is read or hashed: anyone may post here, and a body is up to 1 MiB.
  const within = await withinVisitorLimit(request, {
    visitor: [env.MODERATION_LIMITER, "MODERATION_LIMITER"],
    network: [env.MODERATION_NETWORK_LIMITER, "MODERATION_NETWORK_LIMITER"],
  });
  if (!within) {
    const tooMany = refused(429, "Too many requests in a short while: wait a minute.");
    tooMany.headers.set("Retry-After", String(LIMIT_PERIOD_S));
    return tooMany;
  }
  const signature = SIGNATURE.exec(request.headers.get("X-Signature") ?? "")?.[1];
  const timestamp = request.headers.get("X-Signature-Timestamp") ?? "";
  if (!signature || !TIMESTAMP.test(timestamp)) {
    return refused(
      401,
      'Sign the body: X-Signature-Timestamp: <Unix seconds>, X-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>." and the body>.',
    );
  }
  if (Math.abs(nowSeconds() - Number(timestamp)) > WINDOW_S) {
    return refused(
      401,
      "The signature is not from the last 5 minutes: sign the body again, with the time now.",
    );
  }
  // The raw bytes, as signed (the runtime refuses a body over 1 MiB with 413).
  const body = await request.arrayBuffer();
  if (!(await signed(secret, hexBytes(signature), timestamp, body)))
    return refused(401, "The signature does not match the body.");
  const id = entryId(body);
  if (id === null) return refused(400, 'The body must be {"hide": <entry id>}.');
  if (!(await hideEntry(env.DB, id))) return refused(404, `There is no entry ${id}.`);
  return Response.json({ hidden: id });
}
