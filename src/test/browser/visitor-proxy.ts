// Each browser test's visitor address, written where Cloudflare's edge writes it: on every request.
// A context's extraHTTPHeaders miss the requests a page makes as it is left: a Web Vitals report
// sent with `keepalive` on a navigation goes out without them (Chromium sends it from the browser
// process, past DevTools), so every such report reached the server as one visitor with no address,
// and that visitor's relay limit (20 a minute) refused some of them in a full run. A forward proxy
// per context, which Chromium uses for every request of that context, writes the header instead.
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { CONNECTING_IP_HEADER } from "../../shared/visitor-limit";

/** Headers that belong to one hop (RFC 9110, 7.6.1), not to the request or answer passed on. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

const endToEnd = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

/** A header list of [name, value, name, value, ...] without the hop-by-hop ones. */
function endToEndRaw(raw: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}

export interface VisitorProxy {
  /** The proxy's address, for a context's `proxy.server`. */
  server: string;
  close(): Promise<void>;
}

/**
 * A proxy that forwards plain HTTP with `CF-Connecting-IP: address` (replacing any the browser
 * sent, as Cloudflare does) and tunnels the rest (CONNECT: the dev server's WebSocket) untouched.
 * Answers stream through as they come; an upstream that fails ends the browser's answer too.
 */
export async function startVisitorProxy(address: string): Promise<VisitorProxy> {
  const server = createServer((incoming, outgoing) => {
    const target = new URL(incoming.url ?? "/");
    // Node's headers are lower-case: the browser's own spelling, if it sent one, is replaced.
    const headers = { ...endToEnd(incoming.headers), [CONNECTING_IP_HEADER.toLowerCase()]: address };
    const upstream = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: target.pathname + target.search,
        headers,
        // A connection of its own: Node's shared agent keeps sockets alive between requests, and
        // one the server closed as idle the moment it was reused failed the browser's request
        // unsent (a page's chunk, so the page never hydrated).
        agent: false,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEndRaw(answer.rawHeaders));
        answer.pipe(outgoing);
        answer.on("error", () => outgoing.destroy());
        answer.on("aborted", () => outgoing.destroy());
      },
    );
    upstream.on("error", () => outgoing.destroy());
    outgoing.on("close", () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
    incoming.pipe(upstream);
  });
  const tunnels = new Set<{ destroy(): void }>();
  server.on("connect", (incoming, socket, head) => {
    const { hostname, port } = new URL(`http://${incoming.url}`);
    const tunnel = connect(Number(port), hostname, () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      tunnel.write(head);
      tunnel.pipe(socket).pipe(tunnel);
    });
    tunnel.on("error", () => socket.destroy());
    socket.on("error", () => tunnel.destroy());
    tunnels.add(socket).add(tunnel);
    socket.on("close", () => tunnels.delete(socket));
    tunnel.on("close", () => tunnels.delete(tunnel));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  // A page's last report may still be on its way as its context closes: what is in flight
  // finishes (for two seconds at most), the idle connections and the tunnels end now. Once: a
  // second call waits for the same end.
  let closed: Promise<void> | undefined;
  return {
    server: `http://127.0.0.1:${port}`,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        for (const socket of tunnels) socket.destroy();
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      })),
  };
}
