// A session's last use, as /account shows it: recorded after the answer, at most once a step, so
// a signed-in visitor's reads rarely write.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { nowSeconds } from "../../src/server/sessions";
import { LAST_USE_STEP_S } from "../../src/app/db/account-security.server";
import { productApp } from "./apps";
import { uniqueName } from "./action-helpers";
import { getAs, signUp, type Fetch } from "./sign-in-support";

const app = productApp({ reportError: () => {}, log: () => {} });

/** The product, with every waitUntil settled before the answer is handed back. */
const via: Fetch = async (url, init) => {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(url, init), env, ctx);
  const body = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, response);
};

const lastUse = async (accountId: string) =>
  (await env.DB.prepare("SELECT last_used_at AS at FROM sessions WHERE account_id = ?")
    .bind(accountId)
    .first<{ at: number | null }>())!.at;

const setLastUse = (accountId: string, at: number) =>
  env.DB.prepare("UPDATE sessions SET last_used_at = ? WHERE account_id = ?").bind(at, accountId).run();

describe("a session's last use", () => {
  it("starts at sign-in", async () => {
    const visitor = await signUp(uniqueName("fresh"), undefined, via);
    expect(Math.abs((await lastUse(visitor.accountId))! - nowSeconds())).toBeLessThan(5);
  });

  it("is written when a step old, and not before", async () => {
    const visitor = await signUp(uniqueName("returning"), undefined, via);
    const recent = nowSeconds() - 60;
    await setLastUse(visitor.accountId, recent);
    expect((await getAs("/guestbook", visitor.cookie, {}, via)).status).toBe(200);
    expect(await lastUse(visitor.accountId)).toBe(recent);
    await setLastUse(visitor.accountId, nowSeconds() - LAST_USE_STEP_S - 1);
    expect((await getAs("/account", visitor.cookie, {}, via)).status).toBe(200);
    expect(Math.abs((await lastUse(visitor.accountId))! - nowSeconds())).toBeLessThan(5);
  });
});
