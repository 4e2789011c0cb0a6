// Parses Sentry envelopes as https://develop.sentry.dev/sdk/envelopes/ defines them, strictly:
// a JSON header line, then items of a JSON header line (with `type`) and a payload of `length`
// bytes (or up to the next newline). Web-standard only, so workerd and Node tests share it.

export interface EnvelopeItem {
  header: Record<string, unknown> & { type: string };
  /** The payload parsed as JSON when it is JSON, else its text. */
  payload: unknown;
}

export interface Envelope {
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function parseObject(bytes: Uint8Array, what: string): Record<string, unknown> {
  const value: unknown = JSON.parse(decoder.decode(bytes));
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`${what} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

export function parseEnvelope(body: Uint8Array): Envelope {
  let offset = 0;
  const readLine = (): Uint8Array => {
    const end = body.indexOf(0x0a, offset);
    const line = body.subarray(offset, end === -1 ? body.length : end);
    offset = end === -1 ? body.length : end + 1;
    return line;
  };
  const header = parseObject(readLine(), "envelope header");
  if (header.event_id !== undefined && !/^[0-9a-f]{32}$/.test(String(header.event_id))) {
    throw new Error("event_id is not 32 hex characters");
  }
  const items: EnvelopeItem[] = [];
  while (offset < body.length) {
    const line = readLine();
    if (line.length === 0 && offset >= body.length) break;
    const itemHeader = parseObject(line, "item header");
    if (typeof itemHeader.type !== "string") throw new Error("item header has no type");
    let payload: Uint8Array;
    if (itemHeader.length !== undefined) {
      const length = itemHeader.length;
      if (typeof length !== "number" || !Number.isInteger(length) || length < 0) {
        throw new Error("item length is not a byte count");
      }
      if (offset + length > body.length) throw new Error("item shorter than its length");
      payload = body.subarray(offset, offset + length);
      offset += length;
      if (offset < body.length && body[offset] !== 0x0a) throw new Error("item longer than its length");
      offset++;
    } else {
      payload = readLine();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(decoder.decode(payload));
    } catch {
      parsed = new TextDecoder().decode(payload);
    }
    items.push({ header: itemHeader as EnvelopeItem["header"], payload: parsed });
  }
  return { header, items };
}

/** The first event item's payload: what Sentry shows as the issue. */
export function eventOf(envelope: Envelope): Record<string, any> | undefined {
  // `any`: event payloads are deep, loosely typed JSON; tests read a few fields of them.
  return envelope.items.find((item) => item.header.type === "event")?.payload as Record<string, any>;
}
