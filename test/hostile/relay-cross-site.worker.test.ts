// The relay takes reports from its own site's pages only: another site cannot make its visitors
// post envelopes here, to spend the Sentry quota and their own report limit.
import { describe, expect, it } from "vitest";
import { dsnFor, envelope, randomIp, received, relay } from "../worker/relay-support";

const PROJECT = 23;
const vars = { SENTRY_DSN: dsnFor(PROJECT) };

describe("an envelope posted from another site", () => {
  it("answers 403 to an envelope posted from another site, and forwards nothing", async () => {
    const crossSite: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { "Sec-Fetch-Site": "cross-site" },
    ];
    for (const headers of crossSite) {
      const { response, lines } = await relay({ body: envelope(dsnFor(PROJECT)), headers }, vars);
      expect(response.status).toBe(403);
      expect(lines[0]).toMatchObject({ kind: "relay", status: 403, level: "warn" });
    }
    expect(await received(PROJECT)).toEqual([]);
  });

  it("refuses a cross-site envelope before reading it: a broken body is still 403", async () => {
    const { response } = await relay(
      { body: "{not json", headers: { Origin: "https://evil.example" } },
      vars,
    );
    expect(response.status).toBe(403);
  });

  it("refuses cross-site envelopes before the limiter: they use up none of the visitor's reports", async () => {
    const ip = randomIp();
    const own = { SENTRY_DSN: dsnFor(PROJECT + 1) };
    for (let i = 0; i < 31; i++) {
      const { response } = await relay(
        {
          body: envelope(own.SENTRY_DSN),
          headers: { "CF-Connecting-IP": ip, Origin: "https://evil.example" },
        },
        own,
      );
      expect(response.status).toBe(403);
    }
    const sameSite = await relay(
      { body: envelope(own.SENTRY_DSN), headers: { "CF-Connecting-IP": ip, Origin: "http://localhost" } },
      own,
    );
    expect(sameSite.response.status).toBe(200);
    expect(await received(PROJECT + 1)).toHaveLength(1);
  });
});
