// The relay answers at its path as configured, spelled as configured: a percent-encoded spelling
// of it (`/%6Donitoring`) is any other path, and nothing is forwarded from it.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { productApp } from "../worker/apps";
import { dsnFor, envelope, randomIp, received } from "../worker/relay-support";

const PROJECT = 3310;

async function post(path: string) {
  const lines: string[] = [];
  const app = productApp({ reportError: () => {}, log: (line) => lines.push(line) });
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "CF-Connecting-IP": randomIp(), "Content-Type": "text/plain" },
    body: envelope(dsnFor(PROJECT)),
  });
  const response = await app.fetch(request, { ...env, SENTRY_DSN: dsnFor(PROJECT) }, ctx);
  await response.text();
  await waitOnExecutionContext(ctx);
  return { response, lines: lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("the relay's path", () => {
  it("forwards nothing posted to an encoded spelling of its path", async () => {
    for (const path of ["/%6Donitoring", "/%6donitoring", "/monitorin%67", "/%2Fmonitoring"]) {
      const { response, lines } = await post(path);
      expect(response.status, path).not.toBe(200);
      expect(lines[0]!.kind, path).not.toBe("relay");
    }
    expect(await received(PROJECT)).toEqual([]);
  });

  it("still forwards what is posted to its path as configured", async () => {
    const { response, lines } = await post("/monitoring");
    expect(response.status).toBe(200);
    expect(lines[0]).toMatchObject({ kind: "relay", status: 200 });
    expect(await received(PROJECT)).toHaveLength(1);
  });
});
