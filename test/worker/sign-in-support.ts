// Shared by the signed-in product tests: a real account and session made through the product's own
// endpoints (/sign-in/options, /sign-in/verify) with a soft authenticator, as a browser would.
import { exports } from "cloudflare:workers";

/** How a test reaches the product: the worker itself, or an app of its own (to read its log lines). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;
const worker: Fetch = (url, init) => exports.default.fetch(url, init);
import { ORIGIN, visitorIp } from "./action-helpers";
import { assert, register, softAuthenticator, type SoftAuthenticator } from "../support/soft-authenticator";

/** A same-site JSON post from the visitor `ip`, with `cookie` (if any). */
export function postJson(path: string, body: unknown, cookie = "", via: Fetch = worker) {
  return via(`${ORIGIN}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/json",
      Origin: ORIGIN,
      "Sec-Fetch-Site": "same-origin",
      "CF-Connecting-IP": visitorIp(),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** The `name=value` of each `Set-Cookie` of an answer, by name. */
export function cookiesOf(response: Response): Record<string, string> {
  return Object.fromEntries(
    response.headers.getSetCookie().map((line) => {
      const pair = line.split(";")[0]!;
      return [pair.slice(0, pair.indexOf("=")), pair];
    }),
  );
}

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
export async function signUp(name: string, next?: string, via: Fetch = worker): Promise<Visitor> {
  const authenticator = await softAuthenticator();
  const start = await postJson("/sign-in/options", { kind: "register", name }, "", via);
  if (start.status !== 200) throw new Error(`options: ${start.status} ${await start.text()}`);
  const attempt = cookiesOf(start)["__Host-passkey-attempt"]!;
  const { options } = (await start.json()) as { options: { challenge: string; user: { id: string } } };
  const credential = await register(authenticator, options, { origin: ORIGIN });
  const verify = await postJson("/sign-in/verify", { kind: "register", credential, next }, attempt, via);
  if (verify.status !== 200) throw new Error(`verify: ${verify.status} ${await verify.text()}`);
  const { location } = (await verify.json()) as { location: string };
  const session = cookiesOf(verify)["__Host-session"]!;
  return {
    cookie: session,
    token: session.slice(session.indexOf("=") + 1),
    accountId: options.user.id,
    authenticator,
    setCookies: verify.headers.getSetCookie(),
    location,
  };
}

/** Signs in again with `authenticator` (a passkey of an account); the answer as sent. */
export async function signInWith(authenticator: SoftAuthenticator, next?: string, via: Fetch = worker) {
  const start = await postJson("/sign-in/options", { kind: "authenticate" }, "", via);
  const attempt = cookiesOf(start)["__Host-passkey-attempt"]!;
  const { options } = (await start.json()) as { options: { challenge: string } };
  const credential = await assert(authenticator, options, { origin: ORIGIN });
  return postJson("/sign-in/verify", { kind: "authenticate", credential, next }, attempt, via);
}

/** A GET as the visitor with `cookie`. */
export const getAs = (path: string, cookie = "", headers: Record<string, string> = {}, via: Fetch = worker) =>
  via(`${ORIGIN}${path}`, {
    redirect: "manual",
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers },
  });

/** A plain HTML form post (no JavaScript) as the visitor with `cookie`. */
export const formAs = (path: string, fields: Record<string, string>, cookie = "", via: Fetch = worker) =>
  via(`${ORIGIN}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      "Sec-Fetch-Site": "same-origin",
      "CF-Connecting-IP": visitorIp(),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
