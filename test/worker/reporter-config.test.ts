// The browser reporter's settings reach the page from server config, and only then.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { productApp } from "./apps";
import { PAGE_DATA_SCRIPT_ID, type PageData } from "../../src/shared/protocol";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";

async function embeddedPage(vars: Partial<Env>): Promise<PageData> {
  const app = productApp({ reportError: () => {}, log: () => {} });
  const ctx = createExecutionContext();
  // A deploy of its own (its version keys the edge cache): / is cached, and each call here
  // renders it with other vars, as a deploy with other settings would.
  const version = { CF_VERSION_METADATA: { id: crypto.randomUUID(), tag: "", timestamp: "" } };
  const response = await app.fetch(new Request("http://localhost/"), { ...env, ...version, ...vars }, ctx);
  const html = await response.text();
  await waitOnExecutionContext(ctx);
  const json = new RegExp(
    `<script type="application/json" id="${PAGE_DATA_SCRIPT_ID}"[^>]*>(.*?)</script>`,
  ).exec(html)?.[1];
  return JSON.parse(json!) as PageData;
}

describe("reporter settings in the page", () => {
  it("carries the public DSN (no secret key) and the relay path when SENTRY_DSN is set", async () => {
    const page = await embeddedPage({
      SENTRY_DSN: "https://pub:secret@o1.ingest.example/42",
      SENTRY_RELAY_PATH: "/report",
    });
    expect(page.reporter).toEqual({ dsn: "https://pub@o1.ingest.example/42", tunnel: "/report" });
  });

  it("leaves the reporter off without SENTRY_DSN", async () => {
    const page = await embeddedPage({ SENTRY_DSN: "" });
    expect(page.reporter).toBeUndefined();
  });

  it("answers 404 at the relay path, whatever the method, without SENTRY_DSN", async () => {
    for (const method of ["GET", "POST"]) {
      const response = await exports.default.fetch("http://localhost/monitoring", {
        method,
        body: method === "POST" ? "{}" : undefined,
      });
      expect(response.status).toBe(404);
    }
  });
});
