// Helpers for action tests: posting to the worker, and reading the guestbook table directly.
import { env, exports } from "cloudflare:workers";
import { manifest } from "./apps";

export const ORIGIN = "http://localhost";
export const BUILD = manifest.build;

/** A unique guestbook name, so tests never depend on each other's rows. */
export function uniqueName(prefix = "t"): string {
  return `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
}

/** A random IPv6 /64 prefix (four groups, no `::`): limits count a visitor by it. */
export const visitorNetwork = () =>
  `fd00:${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}:1`;

/** A visitor's address of its own network, so one test's signatures never count against another's limit. */
export const visitorIp = () => `${visitorNetwork()}::${crypto.randomUUID().slice(0, 4)}`;

/** A POST from a visitor of its own (a fresh CF-Connecting-IP) unless `headers` names one. */
export function post(path: string, init: { headers?: Record<string, string>; body?: BodyInit | null } = {}) {
  return exports.default.fetch(`${ORIGIN}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "CF-Connecting-IP": visitorIp(), ...init.headers },
    body: init.body,
  });
}

/** A plain HTML form post (no JavaScript): urlencoded, same-origin, action in `_action`. */
export function postForm(
  fields: Record<string, string>,
  path = "/guestbook",
  headers: Record<string, string> = {},
) {
  return post(path, {
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: ORIGIN,
      "Sec-Fetch-Site": "same-origin",
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** What our client script sends: X-Action and X-Build headers, urlencoded body. */
export function postScript(
  action: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return post("/guestbook", {
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Action": action,
      "X-Build": BUILD,
      Origin: ORIGIN,
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

export interface Row {
  id: number;
  name: string;
  message: string;
  idempotency_key: string;
}

export async function rowsNamed(name: string): Promise<Row[]> {
  const { results } = await env.DB.prepare("SELECT * FROM guestbook WHERE name = ?").bind(name).all<Row>();
  return results;
}
