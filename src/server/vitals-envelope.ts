// A post the browser's vitals collector marked (VITALS_HEADER): counted against the vitals budgets,
// so it is read whole (a report is about 1 KB) and forwarded only as one vitals envelope. Nothing
// else (an error event, an attachment) can ride on the vitals budget.
import { VITALS_KEY } from "../shared/vitals";
import { drainBody } from "./refused-body";

/** Largest vitals report read: what a keepalive fetch may send at all (64 KiB). */
export const MAX_VITALS_BYTES = 64 * 1024;

/** The body's bytes if there are at most `cap`; null, with the rest drained (up to `drainCap`), if not. */
export async function readSmallBody(
  body: ReadableStream<Uint8Array>,
  cap: number,
  drainCap: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > cap) break;
      parts.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  if (length > cap) {
    // Read to its end (the local servers' connection needs it), or cancelled past `drainCap`.
    await drainBody(body, drainCap);
    return null;
  }
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

const parsed = (line: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
};

/**
 * Whether `text` is one vitals envelope as client/vitals-report.ts writes it: a header with a
 * summary (VITALS_KEY), an item header that says only `{"type":"transaction"}` (no `length`, which
 * could make the rest of the line another item), that transaction, and nothing after.
 */
export function isVitalsEnvelope(text: string): boolean {
  const lines = (text.endsWith("\n") ? text.slice(0, -1) : text).split("\n");
  if (lines.length !== 3) return false;
  const [header, item, event] = lines.map(parsed);
  return (
    header != null &&
    VITALS_KEY in header &&
    item != null &&
    Object.keys(item).length === 1 &&
    item.type === "transaction" &&
    event?.type === "transaction"
  );
}
