// The relay sends Sentry no visitor address unless the operator turns it on (SENTRY_SEND_IP), as
// the server's own reporter sends none.
import { describe, expect, it } from "vitest";
import { dsnFor, envelope, received, relay } from "../worker/relay-support";

const PROJECT = 3320;
const IP = "198.51.100.23";

describe("the relay and the visitor's address", () => {
  it("forwards an envelope without the visitor's IP", async () => {
    const vars = { SENTRY_DSN: dsnFor(PROJECT) };
    const { response } = await relay(
      { body: envelope(vars.SENTRY_DSN), headers: { "CF-Connecting-IP": IP } },
      vars,
    );
    expect(response.status).toBe(200);
    const [sent] = await received(PROJECT);
    expect(sent).toBeDefined();
    expect(JSON.stringify(sent!.headers)).not.toContain(IP);
    expect(sent!.headers["x-sentry-forwarded-for"]).toBeUndefined();
  });

  it("forwards it when the operator turns it on", async () => {
    const vars = { SENTRY_DSN: dsnFor(PROJECT + 1), SENTRY_SEND_IP: "1" };
    const { response } = await relay(
      { body: envelope(vars.SENTRY_DSN), headers: { "CF-Connecting-IP": IP } },
      vars,
    );
    expect(response.status).toBe(200);
    const [sent] = await received(PROJECT + 1);
    expect(sent!.headers["x-sentry-forwarded-for"]).toBe(IP);
  });
});
