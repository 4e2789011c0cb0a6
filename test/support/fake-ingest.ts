// A stand-in for Sentry's ingest host: checks envelopes the way Sentry does (auth, header,
// items, gzip, transactions as Relay reads them), records them, and can be told to misbehave, per project or for all. Tests in
// other processes (workerd, e2e) drive it over HTTP: /__control/envelopes|reset|mode|stats.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { gunzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { parseEnvelope, type Envelope } from "./envelope";
import { checkTransaction } from "./sentry-transaction";

export interface RecordedEnvelope extends Envelope {
  project: string;
  /** Request headers as received (lower-case names). */
  headers: Record<string, string>;
  /** Raw body bytes, base64, exactly as received (still gzipped if it was). */
  raw: string;
}

/**
 * ok; 429 with Retry-After and X-Sentry-Rate-Limits; never answer; 302 elsewhere; reset the
 * connection; ok, but the answer's body ends only SLOW_BODY_MS after its head.
 */
export type IngestMode = "ok" | "rate-limit" | "hang" | "redirect" | "down" | "slow-body";
export const INGEST_MODES: IngestMode[] = ["ok", "rate-limit", "hang", "redirect", "down", "slow-body"];
/** How long the slow-body mode holds the end of an answer. */
export const SLOW_BODY_MS = 2_000;
/** Seconds the rate-limit mode asks clients to wait. */
export const RATE_LIMIT_SECONDS = 60;

export interface FakeIngest {
  url: string;
  /** A DSN that points at this server, project 1. */
  dsn: string;
  envelopes: RecordedEnvelope[];
  setMode(mode: IngestMode, project?: string): void;
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

/** Sentry authenticates an envelope by its key: query, X-Sentry-Auth, or the header's dsn. */
function sentryKey(url: URL, request: IncomingMessage, header: Record<string, unknown>): string | null {
  const auth = /sentry_key=([^,\s]+)/.exec(String(request.headers["x-sentry-auth"] ?? ""))?.[1];
  const fromDsn = typeof header.dsn === "string" ? new URL(header.dsn).username : "";
  return url.searchParams.get("sentry_key") ?? auth ?? (fromDsn || null);
}

export async function startFakeIngest(): Promise<FakeIngest> {
  const envelopes: RecordedEnvelope[] = [];
  const modes = new Map<string, IngestMode>();
  const stats = { requests: 0, redirectHits: 0, rejected: [] as string[] };
  const server: Server = createServer(async (request, response) => {
    // Closed after each answer: a kept-alive socket that Node closes after 5 s idle, just as the
    // relay in workerd sends its next envelope on it, fails that envelope ("Network connection
    // lost", a 502), and a limit test of a few hundred envelopes then outlasts its minute.
    response.setHeader("Connection", "close");
    const url = new URL(request.url ?? "/", "http://localhost");
    const json = (status: number, value: unknown) => {
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
    };
    if (url.pathname.startsWith("/__control/")) {
      const project = url.searchParams.get("project");
      switch (url.pathname) {
        case "/__control/envelopes":
          return json(200, project ? envelopes.filter((e) => e.project === project) : envelopes);
        case "/__control/stats":
          return json(200, stats);
        case "/__control/reset":
          envelopes.length = 0;
          modes.clear();
          Object.assign(stats, { requests: 0, redirectHits: 0, rejected: [] });
          return json(200, "ok");
        case "/__control/mode": {
          const mode = url.searchParams.get("mode") as IngestMode;
          if (!INGEST_MODES.includes(mode)) return json(400, `unknown mode ${mode}`);
          modes.set(project ?? "*", mode);
          return json(200, mode);
        }
        case "/__control/redirected":
          stats.redirectHits++;
          return json(200, "followed a redirect");
      }
      return json(404, "unknown control");
    }
    const match = /^\/api\/(\d+)\/envelope\/$/.exec(url.pathname);
    if (!match || request.method !== "POST") return json(404, { detail: "not found" });
    const project = match[1]!;
    stats.requests++;
    const mode = modes.get(project) ?? modes.get("*") ?? "ok";
    if (mode === "down") return void request.socket.destroy();
    if (mode === "hang") return; // never answers
    if (mode === "redirect") {
      response.writeHead(302, { location: `http://${request.headers.host}/__control/redirected` }).end();
      return;
    }
    let raw: Buffer;
    try {
      raw = await readBody(request);
    } catch {
      stats.rejected.push("the client aborted the body");
      return;
    }
    if (mode === "rate-limit") {
      response.writeHead(429, {
        "retry-after": String(RATE_LIMIT_SECONDS),
        "x-sentry-rate-limits": `${RATE_LIMIT_SECONDS}::organization`,
      });
      return void response.end();
    }
    try {
      const body = request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
      const parsed = parseEnvelope(body);
      checkTransaction(parsed);
      if (!sentryKey(url, request, parsed.header)) {
        stats.rejected.push("no sentry_key");
        return json(401, { detail: "missing authorization information" });
      }
      if (typeof parsed.header.dsn === "string" && !parsed.header.dsn.endsWith(`/${project}`)) {
        stats.rejected.push("project mismatch");
        return json(400, { detail: "project id in dsn does not match the URL" });
      }
      envelopes.push({
        project,
        ...parsed,
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
        ),
        raw: raw.toString("base64"),
      });
      if (mode === "slow-body") {
        response.writeHead(200, { "content-type": "application/json" });
        response.write('{"id":');
        setTimeout(() => response.end(JSON.stringify(parsed.header.event_id ?? null) + "}"), SLOW_BODY_MS);
        return;
      }
      json(200, { id: parsed.header.event_id ?? null });
    } catch (error) {
      stats.rejected.push(String(error));
      json(400, { detail: `invalid envelope: ${String(error)}` });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    dsn: `http://publickey@127.0.0.1:${port}/1`,
    envelopes,
    setMode: (mode, project = "*") => void modes.set(project, mode),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
