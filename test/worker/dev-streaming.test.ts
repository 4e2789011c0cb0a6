// Under `npm run dev` (DEV_SERVER), HTML names its encoding so wrangler dev does not gzip
// and hold a streamed page; without it (deployed, tests), answers are as they always were.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { productApp } from "./apps";

const app = productApp({ reportError: () => {}, log: () => {} });

async function encoding(path: string, bindings: Env, headers: Record<string, string> = {}) {
  const response = await app.request(`http://localhost${path}`, { headers }, bindings);
  await response.body?.cancel();
  return { type: response.headers.get("content-type"), encoding: response.headers.get("content-encoding") };
}

describe("the encoding of answers under npm run dev", () => {
  it("is identity on pages, streamed or not, and on error pages, under npm run dev (DEV_SERVER)", async () => {
    const dev = { ...env, DEV_SERVER: "1" };
    for (const path of ["/", "/slow", "/nowhere", "/errors/loader"]) {
      expect(await encoding(path, dev), path).toEqual({
        type: "text/html; charset=utf-8",
        encoding: "identity",
      });
    }
  });

  it("is left alone on page data, which is not streamed", async () => {
    const dev = { ...env, DEV_SERVER: "1" };
    expect((await encoding("/?_data=1", dev, { "X-Page-Data": "1" })).encoding).toBeNull();
  });

  it("is not named at all without DEV_SERVER, as deployed", async () => {
    for (const path of ["/", "/slow"]) expect((await encoding(path, env)).encoding, path).toBeNull();
  });
});
