// What the relay's log line keeps of an envelope's header: its event_id only when it is one.
import { describe, expect, it } from "vitest";
import { dsnFor, relay } from "../worker/relay-support";

const PROJECT = 81;
const vars = { SENTRY_DSN: dsnFor(PROJECT) };

const withEventId = (eventId: unknown) =>
  `${JSON.stringify({ dsn: dsnFor(PROJECT), event_id: eventId })}\n{"type":"event"}\n{}\n`;

describe("the relay's log line", () => {
  it.each([
    ["terminal escape sequences", "\u001b]0;owned\u0007\u001b[2J\u001b[31mred"],
    ["33 hex characters", "a".repeat(33)],
    ["32 characters that are not all hex", `${"a".repeat(31)}g`],
    ["an object", { id: "a".repeat(32) }],
    ["a number", 12345],
  ])("has event_id null when the envelope's is %s", async (_, eventId) => {
    const { lines } = await relay({ body: withEventId(eventId) }, vars);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ kind: "relay", project: String(PROJECT), event_id: null });
  });

  it("has the envelope's event_id when it is 32 hex characters", async () => {
    const eventId = crypto.randomUUID().replaceAll("-", "");
    const { lines } = await relay({ body: withEventId(eventId) }, vars);
    expect(lines[0]).toMatchObject({ kind: "relay", event_id: eventId });
  });
});
