// Drives one workload with autocannon after a warm-up, and reads the servers' CPU over the window.
import autocannon from "autocannon";
import { sampleCpu } from "./proc.mjs";

/** Concurrent connections: enough to keep two cores busy through the proxy, few enough to queue little. */
export const CONNECTIONS = 8;

function run(options) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    if (options.onTick) instance.on("tick", options.onTick);
  });
}

/**
 * One measured run of `workload` against `server`: `warmupS` seconds unmeasured (JIT, caches,
 * D1 pages), then `durationS` seconds with /proc CPU read before and after.
 */
export async function measure(server, workload, { durationS, warmupS, progress }) {
  const options = {
    url: server.url + workload.path,
    connections: CONNECTIONS,
    pipelining: 1,
    method: workload.method ?? "GET",
    headers: { ...workload.headers, ...(workload.origin ? { origin: server.url } : {}) },
    requests: workload.setupRequest ? [{ setupRequest: workload.setupRequest }] : undefined,
    // Stream the whole body: time to last byte, as a browser would.
    timeout: 20,
  };
  await run({ ...options, duration: warmupS });
  const before = sampleCpu(server.processes);
  let seconds = 0;
  const result = await run({
    ...options,
    duration: durationS,
    onTick: () => seconds < durationS && progress?.(++seconds, durationS),
  });
  const after = sampleCpu(server.processes);
  if (seconds < durationS) progress?.(durationS, durationS);
  const requests = result.requests.total;
  const cpuPerRequest = Object.fromEntries(
    Object.keys(before).map((role) => [role, (after[role] - before[role]) / requests]),
  );
  return {
    requests,
    rps: requests / (result.duration || durationS),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuMs: cpuPerRequest,
  };
}
