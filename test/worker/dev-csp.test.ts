import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { productApp } from "./apps";
import { WRANGLER_LIVE_RELOAD_HASH } from "../../src/server/headers";

const app = productApp({ reportError: () => {}, log: () => {} });

async function csp(bindings: Env) {
  const response = await app.request("http://localhost/", {}, bindings);
  await response.body?.cancel();
  return response.headers.get("content-security-policy") ?? "";
}

describe("the CSP under npm run dev", () => {
  it("also allows wrangler's live-reload script, by its hash, under npm run dev (DEV_SERVER)", async () => {
    expect(await csp({ ...env, DEV_SERVER: "1" })).toMatch(
      new RegExp(
        `^script-src 'nonce-[^']+' 'strict-dynamic' ${WRANGLER_LIVE_RELOAD_HASH.replace(/[+/=]/g, "\\$&")};`,
      ),
    );
  });

  it("allows nothing but the nonce otherwise", async () => {
    expect(await csp(env)).not.toContain("sha256");
  });
});
