// The tests' ingest refuses a transaction as Sentry's would (test/support/sentry-transaction.ts):
// the vitals envelopes the browser tests accept are only worth what this check is.
import { describe, expect, it } from "vitest";
import { checkTransaction } from "../support/sentry-transaction";
import type { Envelope } from "../support/envelope";

const TRACE = "0123456789abcdef0123456789abcdef";
const EVENT = "fedcba9876543210fedcba9876543210";

/** A vitals envelope as the collector writes one, with `change` applied to its transaction. */
function envelope(change: (event: Record<string, any>) => void = () => {}): Envelope {
  const event: Record<string, any> = {
    event_id: EVENT,
    type: "transaction",
    transaction: "/guestbook",
    start_timestamp: 1795710000,
    timestamp: 1795710002.5,
    contexts: { trace: { trace_id: TRACE, span_id: "0123456789abcdef", op: "pageload" } },
    tags: { route: "/guestbook", ray: "8f1c2a9e4b7d6a3c" },
    measurements: { lcp: { value: 1200, unit: "millisecond" }, cls: { value: 0.01, unit: "none" } },
    spans: [],
  };
  change(event);
  return {
    header: { event_id: EVENT, trace: { trace_id: TRACE } },
    items: [{ header: { type: "transaction" }, payload: event }],
  };
}

describe("the ingest's transaction check", () => {
  it("accepts a transaction with Sentry's built-in measurements in their units", () => {
    expect(() => checkTransaction(envelope())).not.toThrow();
    expect(() => checkTransaction(envelope((e) => (e.measurements.cls.unit = "")))).not.toThrow();
  });

  it.each([
    ["a measurement Sentry does not know", (e: any) => (e.measurements.lcp_ms = { value: 1 })],
    ["a measurement in another unit", (e: any) => (e.measurements.lcp.unit = "second")],
    ["a negative value", (e: any) => (e.measurements.lcp.value = -1)],
    ["an end before the start", (e: any) => (e.timestamp = e.start_timestamp - 1)],
    ["no trace context", (e: any) => delete e.contexts.trace],
    ["a trace id of the wrong shape", (e: any) => (e.contexts.trace.trace_id = "abc")],
    ["another trace than the header's", (e: any) => (e.contexts.trace.trace_id = EVENT)],
    ["no name", (e: any) => (e.transaction = "")],
    ["a tag value over 200 characters", (e: any) => (e.tags.route = "/".repeat(201))],
  ])("refuses %s", (_, change) => {
    expect(() => checkTransaction(envelope(change))).toThrow();
  });

  it("refuses two events in one envelope", () => {
    const two = envelope();
    two.items.push({ header: { type: "event" }, payload: {} });
    expect(() => checkTransaction(two)).toThrow(/more than one/);
  });
});
