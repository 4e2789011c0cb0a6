// A stand-in for Sentry's ingest host: parses envelopes the way Sentry does, records them,
// and can be told to misbehave. Tests in other processes drive it through /__control.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { gunzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";

export interface RecordedEnvelope {
  project: string;
  /** The envelope header (first line). */
  header: Record<string, unknown>;
  items: { header: Record<string, unknown>; payload: unknown }[];
  /** Request headers as received (lower-case names). */
  headers: Record<string, string>;
  /** Raw body bytes, base64, exactly as received. */
  raw: string;
}

export type IngestMode = "ok" | "rate-limit" | "hang" | "redirect" | "down";

export interface FakeIngest {
  url: string;
  /** A DSN that points at this server, project 1. */
  dsn: string;
  envelopes: RecordedEnvelope[];
  setMode(mode: IngestMode): void;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/** Parses a Sentry envelope: a JSON header line, then items of a JSON header line and a payload. */
export function parseEnvelope(body: Buffer): Pick<RecordedEnvelope, "header" | "items"> {
  let offset = 0;
  const readLine = (): Buffer => {
    const end = body.indexOf(0x0a, offset);
    const line = body.subarray(offset, end === -1 ? body.length : end);
    offset = end === -1 ? body.length : end + 1;
    return line;
  };
  const header = JSON.parse(readLine().toString("utf8")) as Record<string, unknown>;
  const items: RecordedEnvelope["items"] = [];
  while (offset < body.length) {
    const line = readLine();
    if (line.length === 0) continue;
    const itemHeader = JSON.parse(line.toString("utf8")) as Record<string, unknown>;
    let payload: Buffer;
    if (typeof itemHeader.length === "number") {
      payload = body.subarray(offset, offset + itemHeader.length);
      offset += itemHeader.length;
      if (body[offset] === 0x0a) offset++;
    } else {
      payload = readLine();
    }
    const text = payload.toString("utf8");
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    items.push({ header: itemHeader, payload: parsed });
  }
  return { header, items };
}

export async function startFakeIngest(): Promise<FakeIngest> {
  const envelopes: RecordedEnvelope[] = [];
  let mode: IngestMode = "ok";
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname === "/__control/envelopes") {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(envelopes));
      return;
    }
    if (url.pathname === "/__control/reset") {
      envelopes.length = 0;
      mode = "ok";
      response.end("ok");
      return;
    }
    if (url.pathname === "/__control/mode") {
      mode = (url.searchParams.get("mode") as IngestMode) ?? "ok";
      response.end(mode);
      return;
    }
    const match = /^\/api\/([^/]+)\/envelope\/$/.exec(url.pathname);
    if (!match || request.method !== "POST") {
      response.statusCode = 404;
      response.end();
      return;
    }
    if (mode === "down") {
      request.socket.destroy();
      return;
    }
    if (mode === "hang") return; // never answers
    if (mode === "redirect") {
      response.statusCode = 302;
      response.setHeader("location", "http://127.0.0.1:9/elsewhere");
      response.end();
      return;
    }
    const raw = await readBody(request);
    if (mode === "rate-limit") {
      response.statusCode = 429;
      response.setHeader("retry-after", "60");
      response.setHeader("x-sentry-rate-limits", "60:error:organization");
      response.end();
      return;
    }
    try {
      const body = request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
      const parsed = parseEnvelope(body);
      envelopes.push({
        project: match[1]!,
        ...parsed,
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
        ),
        raw: raw.toString("base64"),
      });
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ id: (parsed.header.event_id as string | undefined) ?? null }));
    } catch {
      response.statusCode = 400;
      response.end(JSON.stringify({ detail: "invalid envelope" }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    dsn: `http://publickey@127.0.0.1:${port}/1`,
    envelopes,
    setMode: (next) => {
      mode = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
