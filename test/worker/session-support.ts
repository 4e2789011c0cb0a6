// Shared by the session tests: an account row to sign in, a request carrying a token, and a
// waitUntil that keeps the sliding writes so a test can await them.
import { env } from "cloudflare:workers";
import { SESSION_COOKIE } from "../../src/server/sessions";

/** A new account (sessions reference one), named for the test that made it. */
export async function newAccount(name = "Session tester"): Promise<string> {
  const id = crypto.randomUUID();
  await env.DB.prepare("INSERT INTO accounts (id, display_name) VALUES (?, ?)").bind(id, name).run();
  return id;
}

/** The token a `Set-Cookie` value for the session cookie carries. */
export function tokenOf(setCookie: string): string {
  const match = setCookie.match(new RegExp(`^${SESSION_COOKIE}=([^;]*);`));
  if (!match) throw new Error(`not a session cookie: ${setCookie}`);
  return match[1]!;
}

/** A request whose Cookie header names `token` as the session (beside another cookie). */
export const withToken = (token: string) =>
  new Request("https://verge.test/account", {
    headers: { Cookie: `theme=dark; ${SESSION_COOKIE}=${token}` },
  });

/** A waitUntil that collects what it is given, and `settled()` to await it all. */
export function pending() {
  const promises: Promise<unknown>[] = [];
  return {
    waitUntil: (promise: Promise<unknown>) => void promises.push(promise),
    count: () => promises.length,
    settled: () => Promise.all(promises),
  };
}
