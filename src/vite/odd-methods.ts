/// <reference types="node" />
// The local servers' answer to methods the worker never sees: `vite dev` and `vite preview` hand
// each request to workerd as a fetch Request, which cannot be built for TRACE, TRACK or CONNECT
// (the fetch spec forbids them), so the Cloudflare plugin answered 500; Node's parser refuses an
// unknown token before any handler. Answered here as the deployed worker would: 405 with `Allow`,
// or 501 for a method no one knows.
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import type { Connect, Plugin } from "vite";

/** What the worker allows (server/dispatch.ts answers 405 with this for any other method). */
const ALLOW = "GET, HEAD, POST";

/** Methods a fetch Request cannot carry: the Cloudflare plugin would fail to build one. */
const FORBIDDEN = new Set(["CONNECT", "TRACE", "TRACK"]);

function rawAnswer(socket: Duplex, status: string, headers: string[] = []) {
  const body = `${status.slice(4)}\n`;
  const head = [`HTTP/1.1 ${status}`, ...headers, "Content-Type: text/plain; charset=utf-8"];
  head.push(`Content-Length: ${Buffer.byteLength(body)}`, "Connection: close");
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
}

const refuseForbidden: Connect.NextHandleFunction = function refuseForbidden(request, response, next) {
  if (!FORBIDDEN.has(request.method ?? "")) return next();
  response.writeHead(405, { Allow: ALLOW, "Content-Type": "text/plain; charset=utf-8" });
  response.end("Method Not Allowed\n");
};

function watch(server: Server | null) {
  if (!server) return;
  // CONNECT never reaches the middlewares: Node emits it apart, and with no listener drops it.
  if (server.listenerCount("connect") === 0) {
    server.on("connect", (_: IncomingMessage, socket: Duplex) => {
      socket.on("error", () => {});
      rawAnswer(socket, "405 Method Not Allowed", [`Allow: ${ALLOW}`]);
    });
  }
  // An unknown token fails Node's parser; Vite's own handler answers every parse error 400. This
  // one runs first, answers the method's, and leaves the socket ended, so Vite's says nothing.
  server.prependListener("clientError", (error: Error & { code?: string }, socket: Duplex) => {
    if (error.code === "HPE_INVALID_METHOD" && socket.writable) rawAnswer(socket, "501 Not Implemented");
  });
}

/** Answers TRACE, TRACK, CONNECT and unknown methods before the Cloudflare plugin sees them. */
export function oddMethods(): Plugin {
  return {
    name: "verge:odd-methods",
    enforce: "pre",
    configureServer(server) {
      server.middlewares.use(refuseForbidden);
      watch(server.httpServer as Server | null);
    },
    configurePreviewServer(server) {
      server.middlewares.use(refuseForbidden);
      watch(server.httpServer as Server);
    },
  };
}
