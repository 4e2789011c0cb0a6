// The floor (floor-worker.tsx) writing one log line per request, as the app does: a JSON line
// like the app's (without its timings and cache fields) through console.log. Only for the first
// request after start: there, workerd's first console call loads its local console formatter (its
// port of node:util's inspect), a cost of local workerd alone (the edge hands a Worker's console
// calls to its logs as they are). The app's first request costs the same without its log line
// (2026-11-29: its formatter cost is not seen there), so the plain floor is the one to read.
// BENCHMARKS.md, "Reading them", has the figures.
import floor from "./floor-worker";

export default {
  async fetch(request, env, ctx) {
    const started = performance.now();
    const response = await floor.fetch(request, env, ctx);
    const url = new URL(request.url);
    const line = {
      ts: new Date().toISOString(),
      level: response.status >= 500 ? "error" : response.status >= 400 ? "warn" : "info",
      kind: "html",
      method: request.method,
      path: url.pathname,
      route: url.pathname,
      status: response.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      ray: crypto.randomUUID().replaceAll("-", "").slice(0, 16),
    };
    console.log(JSON.stringify(line));
    return response;
  },
} satisfies ExportedHandler<Env>;
