// HTTP/1.1 by hand over node:net, for what fetch cannot send: a body shorter than its declared
// length, an answer read while the body is still going out, each request on its own connection.
import net from "node:net";

export interface RawAnswer {
  /** The status, once the answer's head came; null when it never did. */
  status: number | null;
  /** Whether the whole answer came (its body by its length or chunks, or up to the close). */
  complete: boolean;
  /** Milliseconds from connecting to the head of the answer, or null. */
  headMs: number | null;
  /** Milliseconds from connecting to the complete answer, or to giving up. */
  ms: number;
  headers: Record<string, string>;
  body: string;
  /** With `stopSendingOnHead`: milliseconds from connecting until the server closed the connection. */
  closedMs: number | null;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  /**
   * Sent after the head, in 16 KiB pieces, while the answer may already be arriving; its length
   * is declared unless `headers` declares another.
   */
  body?: Uint8Array;
  /** Sends `body` with chunked transfer coding (16 KiB chunks) instead of a declared length. */
  chunked?: boolean;
  /** Gives up on the answer after this long (default 10 s). */
  timeoutMs?: number;
  /**
   * Sends no more of the body once the answer's head has come, as curl and proxies do after an
   * early error, and waits for the server to close the connection after the complete answer.
   */
  stopSendingOnHead?: boolean;
}

/** `body` in HTTP/1.1 chunked coding: 16 KiB chunks, then the last (empty) chunk. */
function chunkedCoding(body: Uint8Array): Uint8Array {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.byteLength; at += 16 * 1024) {
    const piece = body.subarray(at, at + 16 * 1024);
    parts.push(Buffer.from(`${piece.byteLength.toString(16)}\r\n`), Buffer.from(piece), Buffer.from("\r\n"));
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}

function parseHead(text: string) {
  const end = text.indexOf("\r\n\r\n");
  if (end === -1) return null;
  const [statusLine, ...lines] = text.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, body: text.slice(end + 4) };
}

/** The body when it is complete by Content-Length or the chunked terminator, else null. */
function completeBody(rest: string, headers: Record<string, string>): string | null {
  if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    return rest.length >= length ? rest.slice(0, length) : null;
  }
  if (headers["transfer-encoding"] === "chunked") {
    let body = "";
    let at = 0;
    for (;;) {
      const lineEnd = rest.indexOf("\r\n", at);
      if (lineEnd === -1) return null;
      const size = parseInt(rest.slice(at, lineEnd), 16);
      if (size === 0) return rest.startsWith("\r\n", lineEnd + 2) ? body : null;
      if (rest.length < lineEnd + 2 + size + 2) return null;
      body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
      at = lineEnd + 2 + size + 2;
    }
  }
  return null;
}

/** Sends one request on a new connection to `baseURL` and resolves with its answer, complete or not. */
export function rawRequest(baseURL: string, request: RawRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseURL);
  const started = Date.now();
  const body = request.chunked
    ? chunkedCoding(request.body ?? new Uint8Array())
    : (request.body ?? new Uint8Array());
  const headers = {
    Host: `${hostname}:${port}`,
    Connection: "close",
    ...(request.chunked
      ? { "Transfer-Encoding": "chunked" }
      : body.byteLength > 0
        ? { "Content-Length": body.byteLength }
        : {}),
    ...request.headers,
  };
  const head =
    `${request.method} ${request.path} HTTP/1.1\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("") +
    "\r\n";
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let received = "";
    let headMs: number | null = null;
    let completeSeen = false;
    let settled = false;
    const finish = (complete: boolean, closed = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseHead(received);
      const framed = parsed && (parsed.headers["content-length"] ?? parsed.headers["transfer-encoding"]);
      resolve({
        status: parsed?.status ?? null,
        // Without a length or chunks, the answer ends with the connection.
        complete: complete || (closed && parsed !== null && !framed),
        headMs,
        ms: Date.now() - started,
        headers: parsed?.headers ?? {},
        body: parsed ? (completeBody(parsed.body, parsed.headers) ?? parsed.body) : "",
        closedMs: request.stopSendingOnHead && closed ? Date.now() - started : null,
      });
    };
    const timer = setTimeout(() => finish(false), request.timeoutMs ?? 10_000);
    socket.on("connect", async () => {
      socket.write(head);
      for (let at = 0; at < body.byteLength && !socket.destroyed; at += 16 * 1024) {
        if (request.stopSendingOnHead && headMs !== null) break;
        // Waiting for each piece to be taken keeps a slow reader's buffer from holding it all.
        const flushed = socket.write(body.subarray(at, at + 16 * 1024));
        if (!flushed) await new Promise((r) => socket.once("drain", r).once("close", r));
      }
    });
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const parsed = parseHead(received);
      if (!parsed) return;
      headMs ??= Date.now() - started;
      if (completeBody(parsed.body, parsed.headers) === null) return;
      // Stopped sending: the answer counts once the server has also closed the connection.
      if (request.stopSendingOnHead) completeSeen = true;
      else finish(true);
    });
    // A reset after a complete answer is fine; before it, the answer is incomplete.
    socket.on("error", () => {});
    socket.on("close", () => finish(completeSeen, true));
  });
}
