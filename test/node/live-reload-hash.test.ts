// `npm run dev` reloads the browser with wrangler's own injected script, which the CSP allows by
// hash. The hash must be that of the script the pinned wrangler really injects.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WRANGLER_LIVE_RELOAD_HASH } from "../../src/server/headers";
import { root } from "./dist";

describe("the live-reload script hash", () => {
  it("matches the script wrangler dev --live-reload appends to HTML", () => {
    const proxy = readFileSync(
      path.join(root, "node_modules/wrangler/templates/startDevWorker/ProxyWorker.ts"),
      "utf8",
    );
    const constant = (name: string) => new RegExp(`const ${name} = "([^"]+)"`).exec(proxy)![1]!;
    const template = /const liveReloadScript = `([\s\S]*?)`;/.exec(proxy)![1]!;
    const html = template
      .replace("${LIVE_RELOAD_PATHNAME}", constant("LIVE_RELOAD_PATHNAME"))
      .replace("${LIVE_RELOAD_PROTOCOL}", constant("LIVE_RELOAD_PROTOCOL"));
    const script = /<script[^>]*>([\s\S]*)<\/script>/.exec(html)![1]!;
    expect(script).toContain("/cdn-cgi/live-reload");
    const hash = createHash("sha256").update(script).digest("base64");
    expect(WRANGLER_LIVE_RELOAD_HASH).toBe(`'sha256-${hash}'`);
  });
});
