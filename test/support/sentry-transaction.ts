// Checks a transaction item the way Sentry's ingest (Relay) takes one apart, for the fake ingest:
// what Relay refuses (no trace context, an end before the start, ids of the wrong shape, more than
// one event in an envelope) is an error here, and so is what it would silently drop (a measurement
// it does not know, or in another unit than its own), so a test never passes on data Sentry loses.
import type { Envelope } from "./envelope";

/** Sentry's built-in web measurements and their units (Relay's global config, builtinMeasurements). */
export const SENTRY_WEB_MEASUREMENTS: Record<string, string> = {
  lcp: "millisecond",
  fcp: "millisecond",
  fp: "millisecond",
  inp: "millisecond",
  ttfb: "millisecond",
  "ttfb.requesttime": "millisecond",
  cls: "none",
};

/** Relay's limits on tags (relay-event-schema: a key of 200 bytes at most, a value of 200 characters). */
const MAX_TAG_KEY = 200;
const MAX_TAG_VALUE = 200;

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isTime = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/** Throws, saying why, when `envelope`'s transaction is not one Sentry would keep whole. */
export function checkTransaction(envelope: Envelope): void {
  const events = envelope.items.filter((item) => ["event", "transaction"].includes(item.header.type));
  if (events.length > 1) throw new Error("more than one event item in an envelope");
  const item = envelope.items.find((candidate) => candidate.header.type === "transaction");
  if (!item) return;
  const event = item.payload;
  if (!isObject(event)) throw new Error("transaction payload is not a JSON object");
  if (event.type !== "transaction") throw new Error('transaction payload has no type "transaction"');
  if (!/^[0-9a-f]{32}$/.test(String(event.event_id))) throw new Error("event_id is not 32 hex characters");
  if (envelope.header.event_id !== undefined && envelope.header.event_id !== event.event_id)
    throw new Error("the envelope header's event_id is not the transaction's");
  if (typeof event.transaction !== "string" || event.transaction === "")
    throw new Error("transaction has no name");
  if (!isTime(event.start_timestamp) || !isTime(event.timestamp))
    throw new Error("start_timestamp and timestamp must be seconds");
  if (event.timestamp < event.start_timestamp) throw new Error("timestamp is before start_timestamp");
  const trace = event.contexts?.trace;
  if (!isObject(trace)) throw new Error("transaction has no trace context");
  if (!/^[0-9a-f]{32}$/.test(String(trace.trace_id))) throw new Error("trace_id is not 32 hex characters");
  if (!/^[0-9a-f]{16}$/.test(String(trace.span_id))) throw new Error("span_id is not 16 hex characters");
  if (trace.op !== undefined && typeof trace.op !== "string") throw new Error("trace op is not a string");
  const dsc = envelope.header.trace;
  if (dsc !== undefined && (!isObject(dsc) || dsc.trace_id !== trace.trace_id))
    throw new Error("the envelope's trace header names another trace");
  if (event.spans !== undefined && !Array.isArray(event.spans)) throw new Error("spans is not a list");
  for (const [name, measurement] of Object.entries(event.measurements ?? {})) {
    const unit = SENTRY_WEB_MEASUREMENTS[name];
    if (unit === undefined) throw new Error(`measurement ${name} is not one Sentry knows`);
    if (!isObject(measurement) || !isTime(measurement.value) || measurement.value < 0)
      throw new Error(`measurement ${name} has no non-negative value`);
    // Relay reads a missing unit and "" as "none", and drops a measurement in another unit than its own.
    if ((measurement.unit || "none") !== unit) throw new Error(`measurement ${name} is not in ${unit}`);
  }
  for (const [key, value] of Object.entries(event.tags ?? {})) {
    if (key.length > MAX_TAG_KEY || typeof value !== "string" || value.length > MAX_TAG_VALUE)
      throw new Error(`tag ${key} is not a short string`);
  }
}
