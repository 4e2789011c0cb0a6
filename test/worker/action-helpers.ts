// Helpers for action tests: posting to the guestbook as a visitor of its own (verge/test), and
// reading the guestbook table directly.
import { env } from "cloudflare:workers";
import { visitor } from "verge/test";
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
  return visitor().fetch(path, { method: "POST", headers: init.headers, body: init.body });
}

/** A plain HTML form post (no JavaScript) from a visitor of its own: action in `_action`. */
export function postForm(
  fields: Record<string, string>,
  path = "/guestbook",
  headers: Record<string, string> = {},
) {
  return visitor().form(path, fields, { headers });
}

/** What the page's script sends for a guestbook action (verge/test's `visitor().action`). */
export function postScript(
  action: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return visitor().action("/guestbook", action, fields, { headers });
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
