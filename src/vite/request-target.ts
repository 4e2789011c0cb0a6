// The local servers' answer to a request target that names another host: Node hands on
// `//evil.example/path`, `/\evil.example/path` and `http://evil.example/path` as they came, and the
// Cloudflare plugin builds the worker's URL from that (`new URL(target, "http://<Host>")`), which
// takes evil.example for the request's host: a cross-host post then passes the same-site rule, and
// canonical URLs and cache keys name that host. Deployed, the host is always the site's own.
import type { Connect, Plugin } from "vite";

/** A target that is a path of this server: one slash, then anything but a second one (`\` is one too). */
const OWN_PATH = /^\/(?![/\\])/;

const refuseOtherHost: Connect.NextHandleFunction = function refuseOtherHost(request, response, next) {
  if (OWN_PATH.test(request.url ?? "/")) return next();
  response.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
  response.end("Bad Request: the request target must be a path of this server\n");
};

/** Answers 400 for a request target that is not a path of this server, before any other handler. */
export function requestTarget(): Plugin {
  return {
    name: "verge:request-target",
    enforce: "pre",
    configureServer(server) {
      server.middlewares.use(refuseOtherHost);
    },
    configurePreviewServer(server) {
      server.middlewares.use(refuseOtherHost);
    },
  };
}
